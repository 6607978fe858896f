//! A real MCP client (rmcp) over streamable HTTP, with a bearer token.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub type Client = RunningService<RoleClient, ()>;

/// Connect to `url/mcp` as `token`.
pub async fn connect(url: &str, token: &str) -> Client {
    let config = StreamableHttpClientTransportConfig::with_uri(format!("{url}/mcp")).auth_header(token.to_string());
    ().serve(StreamableHttpClientTransport::from_config(config)).await.unwrap()
}

/// The text of a tool result.
pub fn text(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.clone()).collect::<Vec<_>>().join("\n")
}

/// Call `name` with `arguments`: (is_error, text, the whole result as JSON).
pub async fn call(client: &Client, name: &str, arguments: Value) -> (bool, String, String) {
    let Value::Object(args) = arguments else { panic!("arguments must be an object") };
    let result = client.call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args)).await.unwrap();
    let json = serde_json::to_string(&result).unwrap();
    (result.is_error.unwrap_or(false), text(&result), json)
}
