import { expect } from "chai";
import { METADATA_LIMITS, metadataOverflows } from "../../shared/chain/metadata-limits";
import { METADATA_LIMITS as LAUNCHER_LIMITS } from "../../workers/chain/launchers/meteora-dbc";

describe("token metadata limits", () => {
  const fits = { name: "n".repeat(32), symbol: "S".repeat(10), uri: `https://x.example/${"u".repeat(182)}` };

  it("are the Meteora launcher's own, counted in UTF-8 bytes up to and including the limit", () => {
    expect(LAUNCHER_LIMITS).to.equal(METADATA_LIMITS);
    expect(Buffer.byteLength(fits.uri)).to.equal(200);
    expect(metadataOverflows("meteora-dbc", fits)).to.deep.equal([]);
    expect(metadataOverflows("meteora-dbc", { ...fits, name: "é".repeat(17), uri: `${fits.uri}/` })).to.deep.equal([
      { field: "name", bytes: 34, max: 32 },
      { field: "uri", bytes: 201, max: 200 },
    ]);
  });

  it("do not apply to a Token-2022 mint, whose metadata account grows to fit", () => {
    expect(
      metadataOverflows("token-2022", { name: "n".repeat(300), symbol: "S".repeat(40), uri: "u".repeat(500) }),
    ).to.deep.equal([]);
  });
});
