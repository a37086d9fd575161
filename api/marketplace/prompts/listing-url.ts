import { config } from "../../../shared/config";

/** Spec: `{platform_url}/prompt/{id}`. */
export function promptListingUrl(id: string): string {
  return `${config.http.platformUrl}/prompt/${id}`;
}
