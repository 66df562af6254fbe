#pragma once

// Agent sessions and their steps in the store.
//
// A session is one agent program (`sandbench agent run`) or one wrapped MCP server (`sandbench mcp wrap`) behind
// the gateway; each tools/call it mediates is a step. The gateway opens a session with SessionStore::begin and
// records through the LiveSession it gets: each step when its call is decided (one transaction, committed before
// the call goes on: it survives a crash of the gateway; the store's WAL is synced at its checkpoints, not at each
// commit), its result when it comes back, and the session's outcome at the end. The session and its
// end are audited (session.start, session.end); the steps are not, one by one.
//
// Liveness: a LiveSession holds a lock (flock) on <store>.d/sessions/<id>.lock for as long as it lives, which
// the kernel releases when its process dies, even by SIGKILL. A reader that finds a session still `running`
// whose lock nobody holds knows its gateway ended without closing it: it reports the session `interrupted`,
// and stores that (audited as a session.end), keeping every step that was recorded. The lock's descriptor is
// close-on-exec, but a child forked without exec holds it too, and keeps the session alive in readers' eyes
// until it exits.
//
// One LiveSession is used from one thread; readers open their own SessionStore where they need one.

#include "agents/json.h"
#include "store/store.h"
#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sb::agents {

// What decided a step. The names are a contract (JSON, the command line, the window).
enum class Verdict : std::uint8_t {
    Allowed,  // the policy let the call through
    Blocked,  // the policy refused it
    Approved, // it needed approval, and a person gave it
    Denied,   // it needed approval, and a person refused it
    Failed,   // it could not be carried out (a malformed call, a server that died)
};
std::string_view toString(Verdict verdict); // "allowed", "blocked", "approved", "denied", "failed"
std::optional<Verdict> verdictFromString(std::string_view text);

// How the session came in.
enum class SessionKind : std::uint8_t {
    Agent, // `sandbench agent run`: an agent program with Sandbench as its MCP server
    Wrap,  // `sandbench mcp wrap`: a third-party MCP server behind Sandbench
};
std::string_view toString(SessionKind kind); // "agent", "wrap"
std::optional<SessionKind> sessionKindFromString(std::string_view text);

enum class SessionStatus : std::uint8_t {
    Running,     // its gateway is recording it
    Completed,   // it ended on its own: the agent or the client finished
    Blocked,     // the policy ended it (steps or cost exhausted); its last step says why
    Failed,      // the gateway could not go on (the sandbox could not start, the peer broke the protocol)
    Interrupted, // its gateway ended without closing it (killed, crashed): found so by a reader
};
std::string_view toString(SessionStatus status); // "running", "completed", "blocked", "failed", "interrupted"
std::optional<SessionStatus> sessionStatusFromString(std::string_view text);

struct SessionInfo {
    std::string id; // a UUID (util/uuid.h), given by SessionStore::begin
    SessionKind kind = SessionKind::Agent;
    std::vector<std::string> command; // the agent's or the server's argv
    std::string sandbox;              // its name
    // The policy's version in the store (Store::recordPolicy), whose id finds the exact YAML; id 0: none.
    PolicyVersion policy;
    std::string policyRef; // the policy as the user named it: "preset:agent", a file, "NAME@VERSION"
    std::string workspace; // the workspace's path as the sandboxed program sees it
    SessionStatus status = SessionStatus::Running;
    std::string message;          // why it ended so ("" while running)
    std::int64_t startedAtMs = 0; // Unix epoch ms
    std::int64_t endedAtMs = 0;   // 0 while running
    std::int64_t steps = 0;       // how many steps it recorded
    double cost = 0;              // their costs' sum
    std::string firstCheckpoint;  // the workspace's checkpoint when the session began; "" none
    std::string protocolVersion;  // the MCP version negotiated; "" until initialize
    Json clientInfo;              // initialize's clientInfo and the serverInfo answered; null until known
    Json serverInfo;
    std::string runId;         // the isolation run of the agent or server process; "" until known
    std::string controlSocket; // the live-control socket's path; "" none
    std::string replayOf;      // the session this one replays; "" none
};

// One tools/call.
struct StepRecord {
    std::int64_t index = 0; // 1, 2, ... in the session
    std::string tool;
    Json arguments = Json::object();
    std::optional<Json> result; // the tool result, or the JSON-RPC error object sent back; nullopt until then
    std::string reasoning;      // what the agent said of the call in its _meta
    std::int64_t startedAtMs = 0;
    std::int64_t endedAtMs = 0; // 0 while the call is in flight
    double cost = 0;
    Verdict verdict = Verdict::Allowed;
    std::string rule;             // what decided the verdict: "blocked_tools: rm*", "argument_rules[0]"; "" the default
    std::string message;          // the verdict's explanation, as the agent was told it
    std::string checkpointBefore; // checkpoint ids; "" none taken
    std::string checkpointAfter;
    std::string requestFrame; // the JSON-RPC lines as they went by
    std::string responseFrame;
    bool edited = false;                   // a person changed the arguments before the call went on
    std::optional<Json> originalArguments; // what the agent sent, when edited
};

// What comes back for a step in flight (LiveSession::finishStep). Every field has an initializer, so that
// designated initializers may name only some: StepEnd{.result = r, .responseFrame = line}.
struct StepEnd {
    std::optional<Json> result{};
    std::int64_t endedAtMs = 0; // 0: now
    std::string responseFrame{};
    std::string checkpointAfter{};
    std::optional<Verdict> verdict{};     // when the outcome changes it (an allowed call whose server failed)
    std::optional<std::string> message{}; // a new message, with such a verdict
};

// What the gateway learns of a session after it began (LiveSession::update): the fields given are replaced.
struct SessionUpdate {
    std::optional<std::string> runId{};
    std::optional<std::string> protocolVersion{};
    std::optional<Json> clientInfo{};
    std::optional<Json> serverInfo{};
    std::optional<std::string> firstCheckpoint{};
    std::optional<std::string> controlSocket{};
};

// A session being recorded, and the lock that tells readers it is. Moving it moves both; destroying it without
// end() leaves the session to be found interrupted.
class LiveSession {
public:
    LiveSession(LiveSession&&) noexcept;
    LiveSession& operator=(LiveSession&&) noexcept;
    ~LiveSession();

    // The session as recorded so far (its step count and cost included).
    const SessionInfo& info() const;
    bool ended() const;

    // Records a decided call as the next step, in one transaction with the session's count and cost. Its index
    // is given here: `step.index` must be 0 or the next one. A step started at 0 started now. Returns the index.
    Result<std::int64_t> addStep(StepRecord step);
    // Many steps in one transaction (a replay, a benchmark), as addStep would one after another. Returns the last
    // index (the count of steps when `steps` is empty).
    Result<std::int64_t> addSteps(std::span<const StepRecord> steps);
    // The result of step `index` came back.
    Result<void> finishStep(std::int64_t index, const StepEnd& end);
    Result<void> update(const SessionUpdate& update);
    // Closes the session with its outcome (any status but Running), audited as session.end, and lets its lock
    // go. Nothing more can be recorded through it.
    Result<void> end(SessionStatus status, std::string message);
    // Nothing is happening in the session (no frame came for a while): the store's write-ahead log is
    // checkpointed now if it is long (Store::checkpointWal), rather than by the commit of a later step. A
    // session's gateway defers the log's checkpoints to these moments (openSession: deferWalCheckpoints).
    void idle();

private:
    friend class SessionStore;
    struct Impl;
    explicit LiveSession(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// Receives text as it is written (SessionStore::writeShowJson); an error stops the writing and is returned.
using ShowSink = std::function<Result<void>(std::string_view text)>;

// The sessions of one store. The store must outlive it and every LiveSession it began.
class SessionStore {
public:
    explicit SessionStore(Store& store);

    // Where the sessions' liveness locks are: <store>.d/sessions.
    static std::filesystem::path lockFolder(const std::filesystem::path& storePath);

    // Records a new session, running, and takes its lock. `info.id` empty: a new UUID (else a lower-case UUID
    // no session has); `info.startedAtMs` 0: now. Status, end, steps and cost are the new session's, whatever
    // `info` says. Audited as session.start. Refused by a store that can only be read.
    Result<LiveSession> begin(SessionInfo info);

    // Every session, newest first, without their steps.
    Result<std::vector<SessionInfo>> list();
    // The session whose id is `idOrPrefix` or starts with it (at least 4 characters); an error names an unknown
    // one, and the candidates of a prefix several ids start with.
    Result<SessionInfo> find(std::string_view idOrPrefix);
    // Steps offset + 1 ... offset + limit of the session with exactly this id, in order; limit < 0: to the end.
    Result<std::vector<StepRecord>> steps(std::string_view id, std::int64_t offset = 0, std::int64_t limit = -1);
    Result<std::vector<StepRecord>> allSteps(std::string_view id) { return steps(id); }

    // `sessions show ID --json` of `session` (as find() gave it) and all its steps: the text of
    // sessionShowJson(session, allSteps(session.id)) dumped, written to `sink` in pieces of about a MiB, straight
    // from the store without building the values (a 100 000-step session in a fraction of a second). A step
    // whose stored JSON is damaged stops the writing with an error naming it, after what was written before it.
    Result<void> writeShowJson(const SessionInfo& session, const ShowSink& sink);

private:
    Store* m_store;
};

// JSON with stable snake_case names (a contract of `sessions list|show --json`). Absent values are null: a
// running session's ended_at_ms, checkpoints not taken, a result not back. Text is as recorded, byte for byte:
// whoever writes it out replaces what is not UTF-8 (nlohmann's error_handler_t::replace).
//
// {id, kind, command, sandbox, policy: {name, version, ref}, workspace, status, message, started_at_ms,
//  ended_at_ms, steps (the count), cost, first_checkpoint, protocol_version, client_info, server_info, run_id,
//  replay_of}
Json sessionJson(const SessionInfo& session);
// {index, tool, arguments, result, reasoning, started_at_ms, ended_at_ms, duration_ms, cost, verdict, rule,
//  message, checkpoint_before, checkpoint_after, edited, original_arguments, request_frame, response_frame}
Json stepJson(const StepRecord& step);
// {"session": sessionJson, "steps": [stepJson...]}: what `sandbench sessions show ID --json` prints.
Json sessionShowJson(const SessionInfo& session, std::span<const StepRecord> steps);

} // namespace sb::agents
