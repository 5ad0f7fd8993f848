//! The documented value shapes and scopes of Claude Code settings, from the
//! settings reference (<https://code.claude.com/docs/en/settings-reference>):
//! each entry's "Type" and "Scope" lines. Only shapes the reference states
//! without hedging are listed; a key whose type has changed across versions
//! (`attribution`, `autoCompactWindow`, `theme` with custom themes) is left
//! out, and the keys the embedded schema or another SETTINGS rule checks
//! (`model`, `apiKeyHelper`, `cleanupPeriodDays`, `includeCoAuthoredBy`,
//! `enableAllProjectMcpServers`, the `.mcp.json` server lists, `permissions`,
//! `env`, `enabledPlugins`, `hooks`) are not repeated here.

use skein_syntax::{Document, NodeId, NodeKind};

/// What a setting's value must be.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shape {
    /// A JSON Boolean.
    Bool,
    /// A string.
    Str,
    /// One of these strings (exact case).
    OneOf(&'static [&'static str]),
    /// A string naming an absolute path (`/...`, `~/...`, or a Windows
    /// drive path).
    AbsPath,
    /// A whole number of at least `min`.
    Int { min: i64 },
    /// An array of strings.
    StrList,
}

/// Where a setting is read, as the reference's "Scope" line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Only from managed settings.
    Managed,
    /// From user and managed settings, never from a project's files.
    UserOrManaged,
    /// From user, local and managed settings: not from the shared
    /// `.claude/settings.json`.
    UserLocalOrManaged,
    /// From `~/.claude.json`, not from a settings file.
    GlobalConfig,
}

/// The effort levels (`effortLevel`; `maxEffortLevel` caps at one of them).
const EFFORT_LEVELS: &[&str] = &["low", "medium", "high", "xhigh", "max"];
const DIALOG_EXPIRY: &[&str] = &["60s", "5m", "10m", "never"];
const CREDENTIAL_MODES: &[&str] = &["deny", "mask"];

/// Each checked setting, as a dotted path (`[]` steps into every item of an
/// array, `*` into every value of an object), and its shape.
pub(crate) const SHAPES: &[(&str, Shape)] = &[
    ("advisorModel", Shape::Str),
    ("agent", Shape::Str),
    ("agentPushNotifEnabled", Shape::Bool),
    ("allowAllClaudeAiMcps", Shape::Bool),
    ("allowManagedHooksOnly", Shape::Bool),
    ("allowManagedMcpServersOnly", Shape::Bool),
    ("allowManagedPermissionRulesOnly", Shape::Bool),
    ("allowedHttpHookUrls", Shape::StrList),
    ("alwaysThinkingEnabled", Shape::Bool),
    ("askUserQuestionTimeout", Shape::OneOf(DIALOG_EXPIRY)),
    ("autoCompactEnabled", Shape::Bool),
    ("autoConnectIde", Shape::Bool),
    ("autoInstallIdeExtension", Shape::Bool),
    ("autoMemoryDirectory", Shape::AbsPath),
    ("autoMemoryEnabled", Shape::Bool),
    ("autoMode.classifyAllShell", Shape::Bool),
    ("autoScrollEnabled", Shape::Bool),
    ("autoUpdatesChannel", Shape::OneOf(&["latest", "stable"])),
    ("availableModels", Shape::StrList),
    ("awaySummaryEnabled", Shape::Bool),
    ("axScreenReader", Shape::Bool),
    ("channelsEnabled", Shape::Bool),
    ("claudeMdExcludes", Shape::StrList),
    ("companyAnnouncements", Shape::StrList),
    (
        "crossSessionInbound",
        Shape::OneOf(&["accept", "hold", "refuse"]),
    ),
    ("defaultShell", Shape::OneOf(&["bash", "powershell"])),
    ("dialogExpiry", Shape::OneOf(DIALOG_EXPIRY)),
    ("diffTool", Shape::OneOf(&["auto", "terminal"])),
    ("disableAgentView", Shape::Bool),
    ("disableAllHooks", Shape::Bool),
    ("disableArtifact", Shape::Bool),
    ("disableAutoMode", Shape::OneOf(&["disable"])),
    ("disableBrowserExternalNavigation", Shape::Bool),
    ("disableBundledSkills", Shape::Bool),
    ("disableClaudeAiConnectors", Shape::Bool),
    ("disableCommandPluginSources", Shape::Bool),
    ("disableDeepLinkRegistration", Shape::OneOf(&["disable"])),
    ("disableMobileSimulatorTools", Shape::Bool),
    ("disableRemoteControl", Shape::Bool),
    ("disableSideloadFlags", Shape::Bool),
    ("disableSkillShellExecution", Shape::Bool),
    ("disableWorkflows", Shape::Bool),
    ("editorMode", Shape::OneOf(&["normal", "vim"])),
    // The reference lists low..xhigh; `max` is accepted by `/effort` and
    // written by it, so it is not reported.
    ("effortLevel", Shape::OneOf(EFFORT_LEVELS)),
    ("emojiCompletionEnabled", Shape::Bool),
    ("enableArtifact", Shape::Bool),
    ("enableWorkflows", Shape::Bool),
    ("enforceAvailableModels", Shape::Bool),
    ("externalEditorContext", Shape::Bool),
    ("fastMode", Shape::Bool),
    ("fastModePerSessionOptIn", Shape::Bool),
    ("fileCheckpointingEnabled", Shape::Bool),
    (
        "forceLoginMethod",
        Shape::OneOf(&["claudeai", "console", "gateway"]),
    ),
    ("forceRemoteSettingsRefresh", Shape::Bool),
    ("httpHookAllowedEnvVars", Shape::StrList),
    // From the Claude Code release notes, newer than the reference:
    // `idleCompaction` (v2.1.299) and `maxEffortLevel`, at the top level or
    // per model under `modelSettings` (v2.1.267), which caps the effort at
    // one of the levels
    // (<https://github.com/anthropics/claude-code/releases>).
    ("idleCompaction", Shape::Bool),
    ("includeGitInstructions", Shape::Bool),
    ("inputNeededNotifEnabled", Shape::Bool),
    ("isolatePeerMachines", Shape::Bool),
    ("keybindingFlavor", Shape::OneOf(&["classic", "readline"])),
    ("language", Shape::Str),
    ("maxEffortLevel", Shape::OneOf(EFFORT_LEVELS)),
    (
        "modelSettings.*.maxEffortLevel",
        Shape::OneOf(EFFORT_LEVELS),
    ),
    ("outputStyle", Shape::Str),
    (
        "parentSettingsBehavior",
        Shape::OneOf(&["first-wins", "merge"]),
    ),
    ("permissionExplainerEnabled", Shape::Bool),
    ("plansDirectory", Shape::Str),
    ("policyHelper.path", Shape::AbsPath),
    ("policyHelper.timeoutMs", Shape::Int { min: 1000 }),
    ("prUrlTemplate", Shape::Str),
    (
        "preferredNotifChannel",
        Shape::OneOf(&["auto", "terminal_bell", "iterm2", "iterm2_with_bell"]),
    ),
    ("prefersReducedMotion", Shape::Bool),
    // The prompt-caching page: a five-minute or a one-hour cache lifetime.
    ("promptCacheTtl", Shape::OneOf(&["5m", "1h"])),
    ("promptSuggestionEnabled", Shape::Bool),
    ("remoteControlAtStartup", Shape::Bool),
    ("respectGitignore", Shape::Bool),
    ("respondToBashCommands", Shape::Bool),
    ("sandbox.allowAppleEvents", Shape::Bool),
    ("sandbox.allowUnsandboxedCommands", Shape::Bool),
    ("sandbox.autoAllowBashIfSandboxed", Shape::Bool),
    ("sandbox.bwrapPath", Shape::AbsPath),
    ("sandbox.credentials.allowPlaintextInject", Shape::Bool),
    (
        "sandbox.credentials.envVars[].mode",
        Shape::OneOf(CREDENTIAL_MODES),
    ),
    ("sandbox.credentials.envVars[].name", Shape::Str),
    ("sandbox.credentials.files[].maskDuplicates", Shape::Bool),
    (
        "sandbox.credentials.files[].mode",
        Shape::OneOf(CREDENTIAL_MODES),
    ),
    (
        "sandbox.credentials.files[].onExtractNoMatch",
        Shape::OneOf(&["warn", "deny", "error"]),
    ),
    ("sandbox.credentials.files[].path", Shape::Str),
    (
        "sandbox.credentials.sigv4.*",
        Shape::OneOf(&["deny", "passthrough"]),
    ),
    ("sandbox.enableWeakerNestedSandbox", Shape::Bool),
    ("sandbox.enableWeakerNetworkIsolation", Shape::Bool),
    ("sandbox.enabled", Shape::Bool),
    ("sandbox.excludedCommands", Shape::StrList),
    ("sandbox.failIfUnavailable", Shape::Bool),
    ("sandbox.filesystem.allowManagedReadPathsOnly", Shape::Bool),
    ("sandbox.filesystem.allowRead", Shape::StrList),
    ("sandbox.filesystem.allowWrite", Shape::StrList),
    ("sandbox.filesystem.denyRead", Shape::StrList),
    ("sandbox.filesystem.denyWrite", Shape::StrList),
    ("sandbox.filesystem.disabled", Shape::Bool),
    ("sandbox.network.allowAllUnixSockets", Shape::Bool),
    ("sandbox.network.allowLocalBinding", Shape::Bool),
    ("sandbox.network.allowMachLookup", Shape::StrList),
    ("sandbox.network.allowManagedDomainsOnly", Shape::Bool),
    ("sandbox.network.allowUnixSockets", Shape::StrList),
    ("sandbox.network.allowedDomains", Shape::StrList),
    ("sandbox.network.deniedDomains", Shape::StrList),
    ("sandbox.network.strictAllowlist", Shape::Bool),
    ("sandbox.socatPath", Shape::AbsPath),
    ("showClearContextOnPlanAccept", Shape::Bool),
    ("showThinkingSummaries", Shape::Bool),
    ("showTurnDuration", Shape::Bool),
    (
        "skillOverrides.*",
        Shape::OneOf(&["on", "name-only", "user-invocable-only", "off"]),
    ),
    ("skipAutoPermissionPrompt", Shape::Bool),
    ("skipDangerousModePermissionPrompt", Shape::Bool),
    ("skipWebFetchPreflight", Shape::Bool),
    ("spinnerTipsEnabled", Shape::Bool),
    ("subagentPromptCacheTtl", Shape::OneOf(&["5m", "1h"])),
    ("spinnerTipsOverride.excludeDefault", Shape::Bool),
    ("spinnerVerbs.mode", Shape::OneOf(&["append", "replace"])),
    ("spinnerVerbs.verbs", Shape::StrList),
    ("sshHostAllowlist", Shape::StrList),
    ("switchModelsOnFlag", Shape::Bool),
    ("syncClaudeAiSkills", Shape::Bool),
    ("syntaxHighlightingDisabled", Shape::Bool),
    (
        "teammateMode",
        Shape::OneOf(&["in-process", "auto", "tmux", "iterm2"]),
    ),
    ("terminalProgressBarEnabled", Shape::Bool),
    ("terminalTitleFromRename", Shape::Bool),
    ("tui", Shape::OneOf(&["default", "fullscreen"])),
    ("ultracode", Shape::Bool),
    ("useAutoModeDuringPlan", Shape::Bool),
    ("verbose", Shape::Bool),
    ("viewMode", Shape::OneOf(&["default", "verbose", "focus"])),
    ("voice.autoSubmit", Shape::Bool),
    ("voice.enabled", Shape::Bool),
    ("voice.mode", Shape::OneOf(&["hold", "tap"])),
    ("voiceEnabled", Shape::Bool),
    ("wheelScrollAccelerationEnabled", Shape::Bool),
    ("workflowKeywordTriggerEnabled", Shape::Bool),
    (
        "workflowSizeGuideline",
        Shape::OneOf(&["unrestricted", "small", "medium", "large"]),
    ),
    ("worktree.baseRef", Shape::OneOf(&["fresh", "head"])),
    ("worktree.bgIsolation", Shape::OneOf(&["worktree", "none"])),
    ("worktree.sparsePaths", Shape::StrList),
    ("worktree.symlinkDirectories", Shape::StrList),
    ("wslInheritsWindowsSettings", Shape::Bool),
    ("attribution.commit", Shape::Str),
    ("attribution.pr", Shape::Str),
    ("attribution.sessionUrl", Shape::Bool),
];

/// The settings the reference scopes away from "Any file", with their scope.
pub(crate) const SCOPES: &[(&str, Scope)] = &[
    ("allowAllClaudeAiMcps", Scope::Managed),
    ("allowManagedHooksOnly", Scope::Managed),
    ("allowManagedMcpServersOnly", Scope::Managed),
    ("allowManagedPermissionRulesOnly", Scope::Managed),
    ("allowedChannelPlugins", Scope::Managed),
    ("askUserQuestionTimeout", Scope::UserOrManaged),
    ("autoConnectIde", Scope::GlobalConfig),
    ("autoInstallIdeExtension", Scope::GlobalConfig),
    ("autoMode", Scope::UserOrManaged),
    ("blockedMarketplaces", Scope::Managed),
    ("browserExternalPageTools", Scope::Managed),
    ("channelsEnabled", Scope::Managed),
    ("claudeMd", Scope::Managed),
    ("dialogExpiry", Scope::UserOrManaged),
    ("diffTool", Scope::GlobalConfig),
    ("disableBrowserExternalNavigation", Scope::Managed),
    ("disableCommandPluginSources", Scope::Managed),
    ("disableMobileSimulatorTools", Scope::Managed),
    ("disableSideloadFlags", Scope::Managed),
    ("enableArtifact", Scope::UserOrManaged),
    ("externalEditorContext", Scope::GlobalConfig),
    ("footerLinksRegexes", Scope::UserOrManaged),
    ("forceLoginGatewayUrl", Scope::Managed),
    ("forceRemoteSettingsRefresh", Scope::Managed),
    ("parentSettingsBehavior", Scope::Managed),
    ("permissionExplainerEnabled", Scope::GlobalConfig),
    ("pluginConfigs", Scope::UserOrManaged),
    ("pluginSuggestionMarketplaces", Scope::Managed),
    ("pluginTrustMessage", Scope::Managed),
    ("policyHelper", Scope::Managed),
    ("processWrapper", Scope::UserOrManaged),
    ("requiredMaximumVersion", Scope::Managed),
    ("requiredMinimumVersion", Scope::Managed),
    ("sandbox.allowAppleEvents", Scope::UserOrManaged),
    ("sandbox.bwrapPath", Scope::Managed),
    (
        "sandbox.credentials.allowPlaintextInject",
        Scope::UserOrManaged,
    ),
    ("sandbox.credentials.awsPairs", Scope::UserOrManaged),
    ("sandbox.credentials.sigv4", Scope::UserOrManaged),
    (
        "sandbox.filesystem.allowManagedReadPathsOnly",
        Scope::Managed,
    ),
    ("sandbox.filesystem.disabled", Scope::UserOrManaged),
    ("sandbox.network.allowManagedDomainsOnly", Scope::Managed),
    ("sandbox.network.strictAllowlist", Scope::UserOrManaged),
    ("sandbox.network.tlsTerminate", Scope::UserOrManaged),
    ("sandbox.ripgrep", Scope::UserOrManaged),
    ("sandbox.socatPath", Scope::Managed),
    ("skipAutoPermissionPrompt", Scope::UserOrManaged),
    (
        "skipDangerousModePermissionPrompt",
        Scope::UserLocalOrManaged,
    ),
    ("spellcheck", Scope::UserOrManaged),
    ("sshConfigs", Scope::UserOrManaged),
    ("sshHostAllowlist", Scope::Managed),
    ("strictKnownMarketplaces", Scope::Managed),
    ("strictPluginOnlyCustomization", Scope::Managed),
    ("syncClaudeAiSkills", Scope::UserLocalOrManaged),
    ("teammateDefaultModel", Scope::GlobalConfig),
    ("useAutoModeDuringPlan", Scope::UserLocalOrManaged),
    ("vimInsertModeRemaps", Scope::UserOrManaged),
    ("wslInheritsWindowsSettings", Scope::Managed),
];

/// Every node at the dotted `path` under `root`, with the path as written
/// to it (array items as `[i]`, object values by their key).
pub(crate) fn at(doc: &Document, root: NodeId, path: &str) -> Vec<(String, NodeId)> {
    let mut here = vec![(String::new(), root)];
    for step in path.split('.') {
        let (name, items) = match step.strip_suffix("[]") {
            Some(n) => (n, true),
            None => (step, false),
        };
        let mut next = Vec::new();
        for (written, node) in here {
            let join = |k: &str| {
                if written.is_empty() {
                    k.to_string()
                } else {
                    format!("{written}.{k}")
                }
            };
            if name == "*" {
                for e in doc.entries(node).unwrap_or_default() {
                    let k = doc.key_text(e.key).unwrap_or_default();
                    next.push((join(&k), e.value));
                }
                continue;
            }
            let Some(v) = doc.get(node, name) else {
                continue;
            };
            if items {
                for (i, &item) in doc.items(v).unwrap_or_default().iter().enumerate() {
                    next.push((format!("{}[{i}]", join(name)), item));
                }
            } else {
                next.push((join(name), v));
            }
        }
        here = next;
    }
    here.retain(|&(_, n)| !matches!(doc.kind(n), NodeKind::Alias(_)));
    here
}

/// Whether `p` is an absolute path as Claude Code reads one: `/...`,
/// `~/...` (or `~` alone), or a Windows drive or UNC path.
pub(crate) fn is_absolute(p: &str) -> bool {
    let b = p.as_bytes();
    p.starts_with('/')
        || p == "~"
        || p.starts_with("~/")
        || p.starts_with("\\\\")
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'/' | b'\\'))
}
