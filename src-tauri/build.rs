//! Lists every app command, so tauri generates an `allow-<command>`
//! permission for each; `capabilities/main.json` grants exactly these to the
//! main window (STYLE convention 12). A command missing here cannot be called.

/// The app's commands (`src/commands/`), in the order of `lib.rs`.
const COMMANDS: &[&str] = &[
    "library_overview",
    "sync_library",
    "pick_folder",
    "add_folder",
    "remove_folder",
    "list_documents",
    "set_override",
    "import_dropped",
    "pick_and_import",
    "ask",
    "read_source",
    "open_source_file",
    "get_settings",
    "save_settings",
    "key_status",
    "set_api_key",
    "delete_api_key",
    "connectivity",
    "export_answer",
    "mcp_setup",
    "embedder_status",
    "choose_builtin_embedder",
    "re_embed_library",
    "restart_app",
];

fn main() {
    let manifest = tauri_build::AppManifest::new().commands(COMMANDS);
    if let Err(e) = tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest)) {
        eprintln!("tauri-build failed: {e:#}");
        std::process::exit(1);
    }
}
