import { EntitySchema } from "typeorm";

/** A row of `prompt_reviews`: one user's rating of a prompt (a second rating replaces the first). */
export interface PromptReviewRow {
  prompt_id: string;
  user_id: string;
  /** 1–5. */
  rating: number;
  comment: string | null;
  created_at: Date;
}

export const PromptReviewEntity = new EntitySchema<PromptReviewRow>({
  name: "PromptReview",
  tableName: "prompt_reviews",
  columns: {
    prompt_id: { type: "uuid", primary: true },
    user_id: { type: "uuid", primary: true },
    rating: { type: "smallint" },
    comment: { type: "text", nullable: true },
    created_at: { type: "timestamptz", createDate: true },
  },
});
