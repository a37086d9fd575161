// File generated from our OpenAPI spec by Stainless. See CONTRIBUTING.md for details.

export * from './swarms/index';
