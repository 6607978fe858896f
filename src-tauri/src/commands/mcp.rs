//! Almirah as a tool in other assistants: the MCP snippet of the Settings
//! page, and the `mcp` mode of this executable (`almirah-desktop mcp`
//! serves the app's library over stdio, as `almirah mcp` does).

use std::sync::Arc;

use tauri::State;

use crate::error::{CmdResult, CommandError};
use crate::payload::McpSetupView;
use crate::state::{AppState, Locations};

/// The JSON to paste into Claude Desktop and VS Code, with this program's
/// real path and the app's config and library filled in.
///
/// # Errors
/// `io` when the executable's path or the library is unknown.
#[tauri::command]
pub async fn mcp_setup(state: State<'_, AppState>) -> CmdResult<McpSetupView> {
    let exe = std::env::current_exe().map_err(|e| CommandError::new("io", format!("cannot find this program: {e}")))?;
    let data_dir = state.engine()?.config().data_dir.clone();
    Ok(setup_view(&exe.to_string_lossy(), &state.config_path.to_string_lossy(), &data_dir.to_string_lossy()))
}

/// The view for `command` reading the config at `config` and the library in `data_dir`.
pub fn setup_view(command: &str, config: &str, data_dir: &str) -> McpSetupView {
    let env = [("ALMIRAH_CONFIG", config.to_string()), ("ALMIRAH_DATA_DIR", data_dir.to_string())];
    let (claude, vscode) = almirah_server::mcp::client_snippets(command, &["mcp"], &env);
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default();
    McpSetupView {
        command: command.to_string(),
        args: vec!["mcp".into()],
        env: env.iter().map(|(k, v)| ((*k).to_string(), v.clone())).collect(),
        claude_desktop: pretty(&claude),
        vscode: pretty(&vscode),
    }
}

/// `almirah-desktop mcp`: serve the app's library over stdio as the
/// config's profile until the client closes stdin.
///
/// # Errors
/// The library cannot be opened, or the MCP transport fails.
pub fn serve_stdio(locations: &Locations) -> Result<(), String> {
    let state = AppState::open(locations);
    let engine: Arc<almirah_core::Engine> = state.engine().map_err(|e| e.message)?;
    let config = state.config().map_err(|e| e.message)?;
    let config_path = Some(state.config_path.clone()).filter(|p| p.exists());
    let setup = almirah_server::Setup { config, config_path, extra_tokens: Default::default() };
    almirah_server::mcp::run_stdio(engine, setup).map_err(|e| e.to_string())
}
