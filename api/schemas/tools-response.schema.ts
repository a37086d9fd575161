import Joi from "joi";
import { BUILTIN_TOOLS } from "../../shared/tools/builtin-tools";

/** `GET /v1/tools/available` (the SDK's ToolListAvailableResponse). */
export const toolsResponseSchema = Joi.object({
  status: Joi.valid("success").required(),
  tools: Joi.array()
    .items(Joi.valid(...BUILTIN_TOOLS))
    .required()
    .description("The built-in tools `tools_enabled` may name on this deployment"),
}).id("AvailableTools");
