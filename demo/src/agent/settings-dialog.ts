/**
 * The model settings dialog: provider, model id, API key and whether to remember it; the
 * header shows the chosen model.
 *
 * @module
 */
import { byId } from "../ui/dom.js";
import {
  DEFAULT_MODEL_IDS,
  loadModelSettings,
  modelLabel,
  saveModelSettings,
  type ModelSettings,
  type ProviderKind,
} from "./providers.js";

/** Wire the dialog; returns a function giving the settings in force (saved ones at first). */
export function wireModelSettings(): () => ModelSettings {
  let settings: ModelSettings = loadModelSettings();
  const label = byId("model-name");
  label.textContent = modelLabel(settings);
  const dialog = byId<HTMLDialogElement>("settings-dialog");
  const providerSelect = byId<HTMLSelectElement>("settings-provider");
  const modelInput = byId<HTMLInputElement>("settings-model");
  const keyInput = byId<HTMLInputElement>("settings-key");
  const rememberInput = byId<HTMLInputElement>("settings-remember");
  const syncFields = () => {
    const scripted = providerSelect.value === "scripted";
    modelInput.disabled = scripted;
    keyInput.disabled = scripted;
    rememberInput.disabled = scripted;
    modelInput.placeholder = DEFAULT_MODEL_IDS[providerSelect.value as ProviderKind];
  };
  providerSelect.addEventListener("change", () => {
    modelInput.value = DEFAULT_MODEL_IDS[providerSelect.value as ProviderKind];
    syncFields();
  });
  byId("model-settings").addEventListener("click", () => {
    providerSelect.value = settings.provider;
    modelInput.value = settings.provider === "scripted" ? "" : settings.modelId;
    keyInput.value = settings.apiKey;
    rememberInput.checked = settings.remember;
    syncFields();
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", () => {
    if (dialog.returnValue !== "save") return;
    const provider = providerSelect.value as ProviderKind;
    settings = {
      provider,
      modelId: modelInput.value.trim() || DEFAULT_MODEL_IDS[provider],
      apiKey: keyInput.value.trim(),
      remember: rememberInput.checked,
    };
    saveModelSettings(settings);
    label.textContent = modelLabel(settings);
  });
  return () => settings;
}
