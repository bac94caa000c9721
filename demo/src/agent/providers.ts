/**
 * Which model the agent uses: the offline scripted model by default, or a real provider
 * (OpenAI, Anthropic) called from the browser with the user's key. Provider packages load on
 * first use, so they do not count in the first load. The key stays in this tab's memory unless
 * the user ticks "remember", which stores it in localStorage.
 *
 * @module
 */
import type { LanguageModel } from "ai";
import { createScriptedModel, type ScriptedModelOptions } from "./scripted-model.js";

export type ProviderKind = "scripted" | "openai" | "anthropic";

export interface ModelSettings {
  readonly provider: ProviderKind;
  /** The provider's model id (ignored for the scripted model). */
  readonly modelId: string;
  /** The API key; empty for the scripted model. */
  readonly apiKey: string;
  /** Store the key in localStorage (otherwise it lives only in this tab's memory). */
  readonly remember: boolean;
}

export const DEFAULT_MODEL_IDS: Readonly<Record<ProviderKind, string>> = {
  scripted: "scripted",
  openai: "gpt-5-mini",
  anthropic: "claude-sonnet-4-5",
};

const STORAGE_KEY = "playground.model";
const KEY_STORAGE_KEY = "playground.apiKey";

/** The saved settings (the key only if the user asked to remember it). */
export function loadModelSettings(): ModelSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Partial<ModelSettings> | null;
    const provider: ProviderKind =
      saved?.provider === "openai" || saved?.provider === "anthropic" ? saved.provider : "scripted";
    const apiKey = localStorage.getItem(KEY_STORAGE_KEY) ?? "";
    return { provider, modelId: saved?.modelId || DEFAULT_MODEL_IDS[provider], apiKey, remember: apiKey !== "" };
  } catch {
    return { provider: "scripted", modelId: "scripted", apiKey: "", remember: false };
  }
}

/** Save the provider and model id; the key only when `remember` is set (else any stored key is removed). */
export function saveModelSettings(settings: ModelSettings): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ provider: settings.provider, modelId: settings.modelId }));
  if (settings.remember && settings.apiKey !== "") localStorage.setItem(KEY_STORAGE_KEY, settings.apiKey);
  else localStorage.removeItem(KEY_STORAGE_KEY);
}

/** A short label for the header button. */
export function modelLabel(settings: ModelSettings): string {
  return settings.provider === "scripted" ? "offline scripted" : `${settings.provider} · ${settings.modelId}`;
}

/**
 * The language model for these settings.
 *
 * @throws Error when a real provider is chosen without a key.
 */
export async function resolveModel(
  settings: ModelSettings,
  scripted: ScriptedModelOptions = {},
): Promise<LanguageModel> {
  if (settings.provider === "scripted") return createScriptedModel(scripted);
  if (settings.apiKey === "") throw new Error(`Add your ${settings.provider} API key in the model settings first.`);
  if (settings.provider === "openai") {
    const { createOpenAI } = await import("@ai-sdk/openai");
    return createOpenAI({ apiKey: settings.apiKey })(settings.modelId);
  }
  const { createAnthropic } = await import("@ai-sdk/anthropic");
  return createAnthropic({
    apiKey: settings.apiKey,
    // Anthropic refuses browser calls unless the caller says it knows the key is exposed to the page.
    headers: { "anthropic-dangerous-direct-browser-access": "true" },
  })(settings.modelId);
}
