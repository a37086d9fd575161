import { CreateSpine1763776800000 } from "./1763776800000-create-spine";

/** Every migration, oldest first. Listed explicitly so no file-system scanning is needed. */
export const migrations = [CreateSpine1763776800000];
