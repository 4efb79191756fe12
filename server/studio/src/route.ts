/** The studio's pages and their addresses: a template's is shareable (`/studio/templates/<id>`). */
export const STUDIO = "/studio";

export type Route = { page: "home" } | { page: "new"; name: string } | { page: "template"; id: string } | { page: "keys" };

export function currentRoute(): Route {
  const path = location.pathname.replace(/\/+$/, "");
  const template = /^\/studio\/templates\/([0-9a-f-]{36})$/.exec(path);
  if (template) return { page: "template", id: template[1]! };
  if (path === `${STUDIO}/new`) return { page: "new", name: new URLSearchParams(location.search).get("name") ?? "Untitled" };
  if (path === `${STUDIO}/keys`) return { page: "keys" };
  return { page: "home" };
}

export function routeUrl(route: Route): string {
  switch (route.page) {
    case "home":
      return STUDIO;
    case "new":
      return `${STUDIO}/new?name=${encodeURIComponent(route.name)}`;
    case "template":
      return `${STUDIO}/templates/${route.id}`;
    case "keys":
      return `${STUDIO}/keys`;
  }
}
