export { type Uploadable } from '../internal/uploads';
export { toFile, type ToFileInput } from '../internal/to-file';
