import Joi from "joi";
import { defineDomain, optionalStr, optionalString, str } from "./setting";

/** Images: a local directory served by the platform, or an S3-compatible bucket when configured. */
export const storage = defineDomain(
  "Image storage",
  {
    STORAGE_DIR: str(
      Joi.string().default(".data/uploads"),
      "local image directory (served by the platform at `/uploads/<key>`)",
    ),
    STORAGE_PUBLIC_URL: optionalStr(Joi.string().uri(), "public address of the local image directory"),
    S3_ENDPOINT: optionalStr(
      Joi.string().uri(),
      "an S3-compatible endpoint for images instead of the local directory (used when it and `S3_BUCKET` are set; path-style addressing)",
    ),
    S3_BUCKET: optionalStr(optionalString, "the S3 bucket for images"),
    S3_REGION: str(Joi.string().default("us-east-1"), "the bucket's region"),
    S3_ACCESS_KEY_ID: optionalStr(optionalString, "S3 access key id"),
    S3_SECRET_ACCESS_KEY: optionalStr(optionalString, "S3 secret access key"),
    S3_PUBLIC_URL: optionalStr(Joi.string().uri(), "public address of the bucket's images"),
  },
  (env, { platformUrl }: { platformUrl: string }) => {
    const endpoint = env("S3_ENDPOINT");
    const bucket = env("S3_BUCKET");
    return {
      storage: {
        dir: env("STORAGE_DIR"),
        publicUrl: env("STORAGE_PUBLIC_URL") ?? `${platformUrl}/uploads`,
        s3:
          endpoint && bucket
            ? {
                endpoint,
                bucket,
                region: env("S3_REGION"),
                accessKeyId: env("S3_ACCESS_KEY_ID") || "",
                secretAccessKey: env("S3_SECRET_ACCESS_KEY") || "",
                publicUrl: env("S3_PUBLIC_URL") ?? `${endpoint}/${bucket}`,
              }
            : null,
      },
    };
  },
);
