import { AppError } from "../errors";

export type ImageProblem = "empty" | "invalid_data_url" | "invalid_base64" | "too_large" | "unsupported_type";

const CODES: Record<ImageProblem, string> = {
  empty: "IMAGE_EMPTY",
  invalid_data_url: "IMAGE_INVALID_DATA_URL",
  invalid_base64: "IMAGE_INVALID_BASE64",
  too_large: "IMAGE_TOO_LARGE",
  unsupported_type: "IMAGE_UNSUPPORTED_TYPE",
};

/** An image that cannot be accepted (400); `problem` tells which rule it broke. */
export class ImageError extends AppError {
  constructor(
    readonly problem: ImageProblem,
    message: string,
  ) {
    super(400, CODES[problem], message);
  }
}
