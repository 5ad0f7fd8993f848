//! SETTINGS: a project's `.claude/settings.json` and
//! `.claude/settings.local.json` (format `claude-settings`) as settings of
//! their own: the top-level keys, `permissions`, `env` and `enabledPlugins`.
//! Their `hooks` are the HOOK rules'.

pub mod claudeignore_has_no_effect;
pub mod ineffective_permission_rule;
pub mod invalid_default_mode;
pub mod invalid_enabled_plugins;
pub mod invalid_permission_rule;
pub mod invalid_setting_value;
pub mod non_string_env;
pub mod path_rule_never_consulted;
pub mod permission_both_allowed_and_denied;
pub mod pr_url_template_placeholder;
pub mod root_anchored_path_rule;
pub mod setting_ignored_at_scope;
pub(crate) mod shapes;
pub mod unknown_setting;

use skein_model::{Artifact, Format};
use skein_syntax::{Document, NodeId, NodeKind};

/// The top-level keys Claude Code reads from a settings file: those of the
/// settings reference (with the managed-only ones, since a key in the wrong
/// file is not a typo) and `autoUpdates`, which older versions read there.
/// Inclusive on purpose: warning on a real key is worse than missing a typo.
pub(crate) const SETTING_KEYS: &[&str] = &[
    "$schema",
    "advisorModel",
    "agent",
    "agentPushNotifEnabled",
    "allowAllClaudeAiMcps",
    "allowedChannelPlugins",
    "allowedHttpHookUrls",
    "allowedMcpServers",
    "allowManagedHooksOnly",
    "allowManagedMcpServersOnly",
    "allowManagedPermissionRulesOnly",
    "alwaysThinkingEnabled",
    "apiKeyHelper",
    "askUserQuestionTimeout",
    "attribution",
    "autoCompactEnabled",
    "autoCompactWindow",
    "autoConnectIde",
    "autoInstallIdeExtension",
    "autoMemoryDirectory",
    "autoMemoryEnabled",
    "autoMode",
    "autoScrollEnabled",
    "autoUpdates",
    "autoUpdatesChannel",
    "availableModels",
    "availableModelsMatch",
    "awaySummaryEnabled",
    "awsAuthRefresh",
    "awsCredentialExport",
    "axScreenReader",
    "blockedMarketplaces",
    "browserExternalPageTools",
    "channelsEnabled",
    "claudeMd",
    "claudeMdExcludes",
    "cleanupPeriodDays",
    "companyAnnouncements",
    "crossSessionInbound",
    "defaultShell",
    "deniedMcpServers",
    "deniedModels",
    "dialogExpiry",
    "diffTool",
    "disableAgentView",
    "disableAllHooks",
    "disableArtifact",
    "disableAutoMode",
    "disableBrowserExternalNavigation",
    "disableBundledSkills",
    "disableClaudeAiConnectors",
    "disableCommandPluginSources",
    "disableDeepLinkRegistration",
    "disabledMcpjsonServers",
    "disableMobileSimulatorTools",
    "disableRemoteControl",
    "disableSideloadFlags",
    "disableSkillShellExecution",
    "disableWorkflows",
    "editorMode",
    "effortLevel",
    "emojiCompletionEnabled",
    "enableAllProjectMcpServers",
    "enableArtifact",
    "enabledMcpjsonServers",
    "enabledPlugins",
    "enableWorkflows",
    "enforceAvailableModels",
    "env",
    "externalEditorContext",
    "extraKnownMarketplaces",
    "fallbackModel",
    "fastMode",
    "fastModePerSessionOptIn",
    "feedbackDrafts",
    "feedbackSurveyRate",
    "fileCheckpointingEnabled",
    "fileSuggestion",
    "footerLinksRegexes",
    "forceLoginGatewayUrl",
    "forceLoginMethod",
    "forceLoginOrgUUID",
    "forceRemoteSettingsRefresh",
    "gcpAuthRefresh",
    "hooks",
    "httpHookAllowedEnvVars",
    "idleCompaction",
    "includeCoAuthoredBy",
    "includeGitInstructions",
    "inputNeededNotifEnabled",
    "isolatePeerMachines",
    "keybindingFlavor",
    "language",
    "managedMcpServers",
    "maxEffortLevel",
    "minimumVersion",
    "model",
    "modelOverrides",
    "modelPicker",
    "modelSettings",
    "otelHeadersHelper",
    "outputStyle",
    "parentSettingsBehavior",
    "permissionExplainerEnabled",
    "permissions",
    "plansDirectory",
    "pluginConfigs",
    "pluginSuggestionMarketplaces",
    "pluginTrustMessage",
    "policyHelper",
    "preferredNotifChannel",
    "prefersReducedMotion",
    "processWrapper",
    "promptCacheTtl",
    "promptSuggestionEnabled",
    "prUrlTemplate",
    "remote",
    "remoteControlAtStartup",
    "requireCoworkFullVmSandbox",
    "requiredMaximumVersion",
    "requiredMinimumVersion",
    "respectGitignore",
    "respondToBashCommands",
    "sandbox",
    "showClearContextOnPlanAccept",
    "showThinkingSummaries",
    "showTurnDuration",
    "skillListingBudgetFraction",
    "skillListingMaxDescChars",
    "skillOverrides",
    "skipAutoPermissionPrompt",
    "skipDangerousModePermissionPrompt",
    "skippedMarketplaces",
    "skippedPlugins",
    "skipWebFetchPreflight",
    "spellcheck",
    "spinnerTipsEnabled",
    "spinnerTipsOverride",
    "spinnerVerbs",
    "sshConfigs",
    "sshHostAllowlist",
    "statusLine",
    "strictKnownMarketplaces",
    "strictPluginOnlyCustomization",
    "subagentPromptCacheTtl",
    "subagentStatusLine",
    "switchModelsOnFlag",
    "syncClaudeAiSkills",
    "syntaxHighlightingDisabled",
    "teammateDefaultModel",
    "teammateMode",
    "terminalProgressBarEnabled",
    "terminalTitleFromRename",
    "theme",
    "tui",
    "ultracode",
    "useAutoModeDuringPlan",
    "verbose",
    "viewMode",
    "vimInsertModeRemaps",
    "voice",
    "voiceEnabled",
    "wheelScrollAccelerationEnabled",
    "workflowKeywordTriggerEnabled",
    "workflowSizeGuideline",
    "worktree",
    "wslInheritsWindowsSettings",
];

/// The permission modes of the settings and IAM pages, as documented.
pub(crate) const PERMISSION_MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "plan",
    "auto",
    "dontAsk",
    "bypassPermissions",
];

/// Modes Claude Code accepts without documenting them (`manual`, an alias of
/// `default`; `delegate`, for agent-team leads): never reported, never suggested.
pub(crate) const UNDOCUMENTED_MODES: &[&str] = &["manual", "delegate"];

/// The settings document of `a` and its root mapping, when `a` is a
/// settings file whose root is an object.
pub(crate) fn settings_of(a: &Artifact) -> Option<(&Document, NodeId)> {
    if a.format != Format::ClaudeSettings {
        return None;
    }
    let doc = &a.document;
    let root = doc.root()?;
    matches!(doc.kind(root), NodeKind::Mapping(_)).then_some((doc, root))
}

/// The `permissions` mapping of a settings document.
pub(crate) fn permissions(doc: &Document, root: NodeId) -> Option<NodeId> {
    doc.get(root, "permissions")
        .filter(|&p| matches!(doc.kind(p), NodeKind::Mapping(_)))
}

/// The string items of `permissions.<list>`, with their nodes.
pub(crate) fn rules_of<'a>(doc: &'a Document, perms: NodeId, list: &str) -> Vec<(NodeId, &'a str)> {
    doc.get(perms, list)
        .and_then(|l| doc.items(l))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| doc.as_str(i).map(|s| (i, s)))
        .collect()
}
