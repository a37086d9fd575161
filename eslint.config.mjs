// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", ".data/", ".bench/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
);
