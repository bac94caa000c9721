import { readFile } from "node:fs/promises";

const base = process.env.API_URL ?? "http://localhost:3000";
const titles = JSON.parse(await readFile(new URL("../data/seed.json", import.meta.url), "utf8")) as string[];

for (const title of titles) {
  const response = await fetch(`${base}/todos`, { method: "POST", body: JSON.stringify({ title }) });
  console.log(response.status, title);
}
