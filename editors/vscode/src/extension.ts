// The skein extension: starts `skein server` (the language server of
// skein, over stdio) for the files skein reads and shows what it publishes.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from "vscode-languageclient/node";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("skein");
  const command = config.get<string>("path", "skein");
  const serverOptions: ServerOptions = {
    run: { command, args: ["server"] },
    debug: { command, args: ["server"] },
  };
  const clientOptions: LanguageClientOptions = {
    // skein decides by path which files it reads; give it every file of
    // the kinds its artifacts are written in.
    documentSelector: [
      { scheme: "file", language: "markdown" },
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "json" },
      { scheme: "file", language: "jsonc" },
      { scheme: "file", pattern: "**/*.{md,yaml,yml,json,jsonc,toml}" },
    ],
    initializationOptions: { debounceMs: config.get<number>("debounceMs", 30) },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*"),
    },
  };
  client = new LanguageClient("skein", "skein", serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
