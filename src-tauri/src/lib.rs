//! The Almirah desktop app: a thin adapter over `almirah-core` and
//! `almirah-answer` (STYLE conventions 1, 9 and 12). Commands live in
//! [`commands`], payloads in [`payload`]; the background watcher in
//! [`service`]; drops are handled in Rust ([`commands::import`]).

pub mod commands;
pub mod convert;
pub mod error;
pub mod payload;
pub mod progress;
pub mod service;
pub mod state;

use tauri::{Builder, Runtime};

pub use state::{AppState, Locations};

/// The app's builder over any runtime (the real one, or
/// `tauri::test::mock_builder()` in tests): plugins, state, commands, the
/// drop handler. `build.rs` lists the same commands.
pub fn configure<R: Runtime>(builder: Builder<R>, state: AppState) -> Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .manage(state)
        .on_window_event(commands::import::on_window_event)
        .invoke_handler(tauri::generate_handler![
            commands::library::library_overview,
            commands::library::sync_library,
            commands::library::pick_folder,
            commands::library::add_folder,
            commands::library::remove_folder,
            commands::documents::list_documents,
            commands::documents::set_override,
            commands::import::import_dropped,
            commands::import::pick_and_import,
            commands::chat::ask,
            commands::chat::read_source,
            commands::chat::open_source_file,
            commands::settings::get_settings,
            commands::settings::save_settings,
            commands::settings::key_status,
            commands::settings::set_api_key,
            commands::settings::delete_api_key,
            commands::settings::connectivity,
            commands::chat::export_answer,
            commands::mcp::mcp_setup,
            commands::embedder::embedder_status,
            commands::embedder::choose_builtin_embedder,
            commands::embedder::re_embed_library,
            commands::embedder::restart_app,
        ])
}

/// The app's context for any runtime: its config, icons, the embedded
/// `ui/dist`, and the permissions of `capabilities/` (the tests use it with
/// the mock runtime, so they go through the same ACL as the app).
pub fn context<R: Runtime>() -> tauri::Context<R> {
    tauri::generate_context!()
}

/// Run the app until its window closes; the watcher stops cleanly.
///
/// # Errors
/// The window system could not start (no display).
pub fn run(locations: &Locations) -> Result<(), tauri::Error> {
    let state = AppState::open(locations);
    let app = configure(tauri::Builder::default(), state)
        .setup(|app| {
            service::start_later(app.handle().clone());
            Ok(())
        })
        .build(context())?;
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event {
            use tauri::Manager;
            if let Some(w) = handle.state::<AppState>().watcher().take() {
                w.stop();
            }
        }
    });
    Ok(())
}
