import type { SwarmTypeName } from "../../shared/swarms/swarm-catalog";
import type { SwarmType } from "./swarm-type";

const types = new Map<SwarmTypeName, SwarmType>();

/**
 * Types that run other types (`auto`, AutoSwarmBuilder) look them up here at run time. The
 * registry fills it; going through this module instead of importing the registry keeps the import
 * graph free of cycles (the registry imports those types).
 */
export function registerSwarmTypes(list: SwarmType[]): void {
  for (const type of list) types.set(type.name, type);
}

/** Every registered type by name. */
export function registeredSwarmTypes(): Partial<Record<SwarmTypeName, SwarmType>> {
  return Object.fromEntries(types) as Partial<Record<SwarmTypeName, SwarmType>>;
}
