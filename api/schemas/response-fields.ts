import Joi from "joi";

/** Building blocks of the documented response bodies. */
export const tokenCount = Joi.number().integer().min(0);
/** US dollars, rounded to 6 decimals. */
export const dollars = Joi.number().min(0);
export const timestamp = Joi.string().isoDate();
export const runId = Joi.string().uuid().description("The run's id; `GET /v1/jobs/{job_id}` reads it again");
export const nullableString = Joi.string().allow(null, "");
