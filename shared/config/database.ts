import Joi from "joi";
import { count, defineDomain, num, str } from "./setting";

/** Postgres. */
export const database = defineDomain(
  "Database",
  {
    DATABASE_URL: str(
      Joi.string()
        .uri({ scheme: ["postgres", "postgresql"] })
        .default("postgres://apiary:apiary@127.0.0.1:5432/apiary"),
      "Postgres",
    ),
    DATABASE_POOL_SIZE: num(
      count.default(20),
      "connections per process (processes x pool size must stay below Postgres's `max_connections`)",
    ),
  },
  (env) => ({ databaseUrl: env("DATABASE_URL"), databasePoolSize: env("DATABASE_POOL_SIZE") }),
);
