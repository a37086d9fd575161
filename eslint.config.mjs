// @ts-check
import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", ".data/", ".bench/", "test/vendor/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // The folder rules (also checked on the import graph by test/unit/boundaries.test.ts).
    files: ["api/**/*.ts", "shared/**/*.ts", "workers/**/*.ts"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { node: { extensions: [".ts", ".js", ".json"] } },
      "boundaries/elements": [
        { type: "http", pattern: "api/http" },
        { type: "routes", pattern: "api/routes" },
        // Use cases: what the service does, called by routes and free of HTTP plumbing; with them the
        // run spine they call (api/spine), free of it too. Which use case may import which is checked
        // on the import graph only (test/unit/boundaries.test.ts).
        { type: "use-case", pattern: "api/(runs|marketplace|token-launch|limits|auth|spine)" },
        { type: "api", pattern: "api" },
        { type: "workers", pattern: "workers" },
        { type: "shared", pattern: "shared" },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "allow",
          policies: [
            // Use cases know no HTTP: they take and return plain values, routes adapt them.
            { from: { element: { type: "use-case" } }, disallow: { to: { element: { types: ["http", "routes"] } } } },
            // HTTP plumbing is generic: it may name a use case's types, never call one or a route.
            { from: { element: { type: "http" } }, disallow: { to: { element: { type: "routes" } } } },
            {
              from: { element: { type: "http" } },
              disallow: { to: { element: { type: "use-case" } }, dependency: { kind: "value" } },
            },
            {
              from: { element: { type: "shared" } },
              disallow: {
                to: { element: { types: ["http", "routes", "use-case", "api", "workers"] } },
              },
            },
            {
              from: { element: { type: "workers" } },
              disallow: { to: { element: { types: ["http", "routes", "use-case", "api"] } } },
            },
            {
              from: { element: { types: ["http", "routes", "use-case", "api"] } },
              disallow: { to: { element: { type: "workers" } } },
            },
          ],
        },
      ],
    },
  },
  {
    // One way to Postgres: `sql` and `transaction` (shared/db/sql.ts); TypeORM keeps the pool, the
    // entities' types and the migrations.
    files: ["api/**/*.ts", "shared/**/*.ts", "workers/**/*.ts"],
    ignores: ["shared/db/sql.ts", "shared/db/migrations/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.property.name=/^(query|transaction|getRepository|createQueryBuilder|createQueryRunner)$/]",
          message: "Reach Postgres through `sql` or `transaction` (shared/db/sql.ts), the one way the code does.",
        },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-expressions": "off", // chai's `expect(x).to.be.true`
    },
  },
);
