// Theme choice: System follows prefers-color-scheme; Light and Dark pin it.
// The resolved theme is written to <html data-theme="light|dark">.

export type ThemeChoice = "system" | "light" | "dark";

const KEY = "almirah-theme";
const media = typeof window !== "undefined" ? window.matchMedia("(prefers-color-scheme: dark)") : null;

export function loadTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    if (v === "light" || v === "dark" || v === "system") return v;
  } catch {
    // storage unavailable: use the default
  }
  return "system";
}

export function applyTheme(choice: ThemeChoice): void {
  const dark = choice === "dark" || (choice === "system" && !!media?.matches);
  const root = document.documentElement;
  root.dataset.theme = dark ? "dark" : "light";
  root.dataset.themeChoice = choice;
}

export function saveTheme(choice: ThemeChoice): void {
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    // not persisted; still applied for this session
  }
  applyTheme(choice);
}

/** Applies the stored choice and keeps System in step with the OS. */
export function initTheme(): void {
  applyTheme(loadTheme());
  media?.addEventListener("change", () => {
    if (loadTheme() === "system") applyTheme("system");
  });
}
