// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export type GetRootResponse = unknown;

export declare namespace TopLevel {
  export { type GetRootResponse as GetRootResponse };
}
