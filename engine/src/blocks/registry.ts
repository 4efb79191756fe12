/** Every block the engine knows, by type. The validator and the three renderers read this one map. */

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

export const BLOCKS = {
  paragraph,
  heading,
  image,
  video,
  list,
  button,
  anchor,
  divider,
  spacer,
  menu,
  socials,
} as const;

export type BlockType = keyof typeof BLOCKS;
export const BLOCK_TYPES = Object.keys(BLOCKS) as BlockType[];

export function isBlockType(type: string): type is BlockType {
  return Object.hasOwn(BLOCKS, type);
}

export function blockDefinition(type: BlockType): BlockDefinition<unknown> {
  return BLOCKS[type] as unknown as BlockDefinition<unknown>;
}
