import type { HeavySwarmVariant } from "../../../shared/contracts/swarm-request";

/** A built-in HeavySwarm worker: its name and its speciality prompt. */
interface BuiltInWorker {
  name: string;
  prompt: string;
}

/** The team a variant runs when the request has no agents: its workers and the name of its synthesis agent. */
export interface HeavySwarmTeam {
  workers: readonly BuiltInWorker[];
  /** The agent that writes the report; its turn's `role` is always `Synthesis`, the job. */
  synthesis: string;
}

/** A specialist worker prompt, in one shape for every variant. */
const specialist = (name: string, field: string, focus: string): BuiltInWorker => ({
  name,
  prompt: `You are ${name}, a specialist in ${field}. ${focus} Answer your question from your speciality, with specifics, and say how confident you are.`,
});

/** `default`: four generalist roles (the hosted docs' Research, Analysis, Alternatives, Verification). */
const DEFAULT_WORKERS: readonly BuiltInWorker[] = [
  {
    name: "Research",
    prompt:
      "You are a research specialist. Gather the facts, evidence, data and sources that bear on your question, and say how reliable each is.",
  },
  {
    name: "Analysis",
    prompt:
      "You are an analysis specialist. Break your question down, find the patterns, causes and trade-offs, and draw reasoned conclusions.",
  },
  {
    name: "Alternatives",
    prompt:
      "You are an alternatives specialist. Explore other approaches and options for your question, and compare them with their pros and cons.",
  },
  {
    name: "Verification",
    prompt:
      "You are a verification specialist. Check the claims, assumptions and feasibility your question raises, and point out risks and errors.",
  },
];

/** `medium`: three complementary minds (the reference framework's medium team). */
const MEDIUM_WORKERS: readonly BuiltInWorker[] = [
  specialist("Harper", "research and facts", "Find and check the facts, evidence and sources."),
  specialist("Benjamin", "logic, mathematics and code", "Reason step by step, quantify, and test the logic."),
  specialist("Lucas", "creative and divergent thinking", "Look for unexpected angles, options and reframings."),
];

/** `heavy`: fifteen domain specialists (the reference framework's heavy team). */
const HEAVY_WORKERS: readonly BuiltInWorker[] = [
  specialist("Harper", "creative writing", "Bring narrative, framing and clear communication."),
  specialist("Benjamin", "data and finance", "Bring numbers, markets, costs and financial reasoning."),
  specialist("Lucas", "coding and technology", "Bring technical feasibility, systems and software."),
  specialist("Olivia", "literature and the arts", "Bring cultural context and human meaning."),
  specialist("James", "history and philosophy", "Bring precedent, first principles and ideas."),
  specialist("Charlotte", "mathematics and statistics", "Bring rigorous quantitative reasoning and uncertainty."),
  specialist("Henry", "engineering", "Bring design constraints, trade-offs and how things get built."),
  specialist("Mia", "biology and health", "Bring life-science evidence and effects on people's health."),
  specialist("William", "business strategy", "Bring competition, incentives, execution and value."),
  specialist("Sebastian", "physics and science", "Bring physical limits and the scientific method."),
  specialist("Jack", "psychology", "Bring behaviour, cognition, biases and motivation."),
  specialist("Owen", "the environment", "Bring ecological impact, resources and sustainability."),
  specialist("Luna", "space and futurism", "Bring long-range trends and scenarios for the future."),
  specialist("Elizabeth", "ethics and policy", "Bring ethical risks, regulation and governance."),
  specialist("Noah", "systems thinking", "Bring feedback loops, second-order effects and long-term dynamics."),
];

/**
 * The built-in team of each `heavy_swarm_variant` (docs/swarm-types.md HeavySwarm): `default` is the
 * hosted docs' four roles and a Synthesis agent; `medium` and `heavy` are the reference framework's
 * three- and fifteen-specialist teams, whose report a Captain Swarm writes.
 */
export const HEAVY_SWARM_TEAMS: Readonly<Record<HeavySwarmVariant, HeavySwarmTeam>> = {
  default: { workers: DEFAULT_WORKERS, synthesis: "Synthesis" },
  medium: { workers: MEDIUM_WORKERS, synthesis: "Captain Swarm" },
  heavy: { workers: HEAVY_WORKERS, synthesis: "Captain Swarm" },
};
