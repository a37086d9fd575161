import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "../../shared/storage";

/** A local S3-compatible server (real S3 REST protocol and SigV4 signatures) with one bucket. */
export interface LocalS3 {
  settings: S3Settings;
  close(): Promise<void>;
}

/** s3rver's built-in account; requests signed with any other secret are refused. */
const LOCAL_S3_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startLocalS3(bucket = "apiary-images"): Promise<LocalS3> {
  const directory = await mkdtemp(join(tmpdir(), "apiary-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    settings: { endpoint, bucket, region: "us-east-1", ...LOCAL_S3_KEY, publicUrl: `${endpoint}/${bucket}` },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
