// Browser stand-in for the `process` module memfs asks for when no global `process` exists.
// memfs fills in what is missing (cwd "/", emitWarning); nothing here touches globals.
export const env = {};
export const platform = "browser";
export function cwd() {
  return "/";
}
