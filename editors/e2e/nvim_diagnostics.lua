-- Headless Neovim (0.7 and later) with its built-in LSP client: starts
-- `skein server`, opens a file of the demo repository and asserts the
-- diagnostics it receives. Run from the workspace root:
--   SKEIN_BIN=target/debug/skein nvim --headless --clean -u NONE \
--     -c 'luafile editors/e2e/nvim_diagnostics.lua'
-- Exits 0 when the diagnostics are the expected ones, 1 otherwise.
local skein = vim.env.SKEIN_BIN or "target/debug/skein"
local root = vim.fn.fnamemodify("corpus/examples/demo-repo", ":p"):gsub("/$", "")
local file = root .. "/packs/core/loops/triage/loop.json"
local expected = { "FLOW001", "FLOW005", "REF001" }

local function finish(ok, msg)
  io.stdout:write(msg .. "\n")
  vim.cmd(ok and "qall!" or "cquit! 1")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  name = "skein",
  cmd = { skein, "server" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "demo-repo" } },
})
if not client_id then
  finish(false, "nvim: could not start " .. skein .. " server")
end
vim.lsp.buf_attach_client(buf, client_id)

local function codes()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, tostring(code))
  end
  table.sort(out)
  return out
end

local got_all = vim.wait(20000, function()
  return #codes() >= #expected
end, 50)
local got = codes()
local ok = got_all and table.concat(got, ",") == table.concat(expected, ",")
local first = vim.diagnostic.get(buf)[1]
if ok then
  -- The duplicate gate id, at its line (0-based 20), from skein.
  local dup
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if code == "REF001" then
      dup = d
    end
  end
  ok = dup ~= nil and dup.lnum == 20 and dup.source == "skein"
    and dup.severity == vim.diagnostic.severity.ERROR
    and dup.message:find("gate id `G1` is already used in loop `review`", 1, true) ~= nil
end
-- shutdown and exit, and wait for the server to end.
vim.lsp.stop_client(client_id)
vim.wait(5000, function()
  return vim.lsp.get_client_by_id(client_id) == nil
end, 50)
finish(ok, (ok and "ok: " or "FAILED: ") .. "nvim received " .. table.concat(got, ",")
  .. " for " .. file .. (first and (" (first: " .. first.message .. ")") or ""))
