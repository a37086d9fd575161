import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { domains } from "../../shared/config";

const ROOT = join(__dirname, "..", "..");

interface DocSection {
  title: string;
  file: string | undefined;
  rows: { name: string; fallback: string; description: string }[];
}

/**
 * `## Title`, its "Declared in `file`" line and its table rows, as docs/configuration.md and its
 * sequel docs/configuration-platform.md write them, read as one page.
 */
function readDoc(): DocSection[] {
  const doc = ["configuration.md", "configuration-platform.md"]
    .map((file) => readFileSync(join(ROOT, "docs", file), "utf8"))
    .join("\n");
  return doc
    .split(/^## /m)
    .slice(1)
    .map((section) => {
      const lines = section.split("\n");
      const rows = lines
        .filter((line) => /^\| `[A-Z0-9_]+` /.test(line))
        .map((line) => {
          const [name, fallback, description] = line
            .split("|")
            .slice(1, -1)
            .map((cell) => cell.trim());
          return { name: name.replaceAll("`", ""), fallback, description };
        });
      return { title: lines[0].trim(), file: /^Declared in `([^`]+)`/m.exec(section)?.[1], rows };
    });
}

/** The default a setting's rule gives, as the doc writes it; `undefined` when the rule gives none outright. */
function documentedDefault(schema: { describe(): { flags?: object } }): string | undefined {
  const flags: { default?: unknown } = schema.describe().flags ?? {};
  if (flags.default === undefined) return undefined;
  return flags.default === "" ? "empty" : `\`${String(flags.default)}\``;
}

describe("docs/configuration.md", () => {
  const sections = readDoc();
  const declared = Object.values(domains);

  it("has one section per configuration domain, in the order shared/config/index.ts lists them", () => {
    expect(sections.map((s) => s.title)).to.deep.equal(declared.map((d) => d.title));
  });

  it("lists exactly each domain's variables, with their declared descriptions and defaults", () => {
    for (const [i, domain] of declared.entries()) {
      const rows = sections[i]?.rows ?? [];
      expect(
        rows.map((r) => r.name),
        domain.title,
      ).to.deep.equal(Object.keys(domain.settings));
      for (const [name, setting] of Object.entries(domain.settings)) {
        const row = rows.find((r) => r.name === name);
        expect(row?.description, name).to.equal(setting.describe);
        const fallback = documentedDefault(setting.schema);
        if (fallback === undefined) expect(row?.fallback, name).to.match(/\S/);
        else expect(row?.fallback, name).to.equal(fallback);
      }
    }
  });

  it("names the file that declares each section's variables", () => {
    for (const [i, domain] of declared.entries()) {
      const file = sections[i]?.file ?? "";
      expect(existsSync(join(ROOT, file)), `${domain.title}: ${file}`).to.equal(true);
      const source = readFileSync(join(ROOT, file), "utf8");
      for (const name of Object.keys(domain.settings)) expect(source, name).to.match(new RegExp(`^\\s+${name}:`, "m"));
    }
  });

  it("declares no variable in two domains", () => {
    const names = declared.flatMap((d) => Object.keys(d.settings));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).to.deep.equal([]);
  });
});
