/*
 * The release engine's memory, for its JavaScript host (engine/runtimes/quickjs/host.ts), as the
 * global `mailrenderMemory`:
 *
 *   release()        a full garbage collection, then free pages back to the operating system;
 *   capHeap(bytes)   QuickJS's allocations fail past `bytes` (the --max-memory ceiling): the render
 *                    that needed them ends with an "out of memory" InternalError, nothing grows.
 *
 * On Linux the engine is linked statically with mimalloc (MAILRENDER_MIMALLOC, engine/scripts/
 * build-quickjs.ts). zig's static C library keeps every page a small allocation ever used for later
 * small allocations and never returns it: one request that escaped a 7 MB value left a `--serve`
 * process at 1.7 GB for the rest of its life. mimalloc returns free pages; `release` asks it to do so
 * at once rather than on its next allocations. macOS and Windows use their system allocators.
 *
 * Installed by `mailrender_memory_init`, which the build adds to qjsc's generated main().
 */
#include <stdbool.h>
#include <stdint.h>
#include "quickjs.h"
#ifdef MAILRENDER_MIMALLOC
#include "mimalloc.h"
#endif

static JSValue memory_release(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    JS_RunGC(JS_GetRuntime(ctx));
#ifdef MAILRENDER_MIMALLOC
    mi_collect(true);
#endif
    return JS_UNDEFINED;
}

static JSValue memory_cap_heap(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv)
{
    double bytes;
    if (argc < 1 || JS_ToFloat64(ctx, &bytes, argv[0]))
        return JS_EXCEPTION;
    JS_SetMemoryLimit(JS_GetRuntime(ctx), bytes >= 1 && bytes < (double)SIZE_MAX ? (size_t)bytes : (size_t)-1);
    return JS_UNDEFINED;
}

static const JSCFunctionListEntry memory_functions[] = {
    JS_CFUNC_DEF("release", 0, memory_release),
    JS_CFUNC_DEF("capHeap", 1, memory_cap_heap),
};

void mailrender_memory_init(JSContext *ctx)
{
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue memory = JS_NewObject(ctx);
    JS_SetPropertyFunctionList(ctx, memory, memory_functions, sizeof memory_functions / sizeof memory_functions[0]);
    JS_SetPropertyStr(ctx, global, "mailrenderMemory", memory);
    JS_FreeValue(ctx, global);
}
