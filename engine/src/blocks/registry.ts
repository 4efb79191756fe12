/**
 * Every block the engine knows, by type: the one list the reader, the targets, the plain-text
 * version, the schemas and the docs walk. An engine can be made with another registry (a test's toy
 * block, an application's own blocks): `blockRegistry([...BLOCK_LIST, myBlock])`.
 */

import { anchor } from "./anchor/index.js";
import type { BlockDefinition } from "./block.js";
import { button } from "./button/index.js";
import { divider } from "./divider/index.js";
import { heading } from "./heading/index.js";
import { image } from "./image/index.js";
import { list } from "./list/index.js";
import { menu } from "./menu/index.js";
import { paragraph } from "./paragraph/index.js";
import { socials } from "./socials/index.js";
import { spacer } from "./spacer/index.js";
import { video } from "./video/index.js";

/** Block definitions by type. */
export type BlockRegistry = Readonly<Record<string, BlockDefinition<unknown>>>;

/** The registry of these blocks, in this order (the order of the published schema and the docs). */
export function blockRegistry(blocks: readonly BlockDefinition<unknown>[]): BlockRegistry {
  const registry: Record<string, BlockDefinition<unknown>> = Object.create(null);
  for (const block of blocks) {
    if (registry[block.type] !== undefined) throw new Error(`Two blocks of type "${block.type}"`);
    registry[block.type] = block;
  }
  return Object.freeze(registry);
}

/** The blocks of this engine version. */
export const BLOCK_LIST = [paragraph, heading, image, video, list, button, anchor, divider, spacer, menu, socials] as const;

export const BLOCKS: BlockRegistry = blockRegistry(BLOCK_LIST);

/** The definition of a block type in a registry, if it has one. */
export function blockOf(registry: BlockRegistry, type: string): BlockDefinition<unknown> | undefined {
  return Object.hasOwn(registry, type) ? registry[type] : undefined;
}
