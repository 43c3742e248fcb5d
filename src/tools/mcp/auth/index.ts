// The face of mcp/auth/ (R-MCP-1): logging in and out of an HTTP server.
export { loginServer, openInBrowser } from "./login.js";
export { loginInSession, logoutInSession } from "./session-login.js";
export { authDir, loginState, readLogin, removeLogin } from "./token-store.js";
