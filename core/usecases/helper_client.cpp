#include "usecases/helper_client.h"

#include "helper_wire.h"
#include "util/errno_text.h"
#include "util/peer_process.h"
#include "util/program_files.h"
#include "util/runtime_folder.h"
#include "util/utf8.h"
#include "util/unique_fd.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace sb::helper {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace wire;

const std::vector<std::string_view> kContextVariables = {
    "TMPDIR",          // the runs' work root (isolation/runner.cpp)
    "SANDBENCH_AUDIT_KEYS", "XDG_CONFIG_HOME", "HOME", // the audit key's folder (store/audit_key.cpp)
    "USER",            // the actor of audit entries when the account has no name (sandboxes/engine_support.h)
    "TZ", "TZDIR",     // time zones (cel/time.cpp)
    "SANDBENCH_TRACE_START", "SANDBENCH_TRACE_WORKSPACE", // traces printed by the process that runs
};

// --- the wire ---

namespace wire {

// `passFd`, when there is one, goes with the frame's first bytes (SCM_RIGHTS).
Result<void> writeFrame(int fd, char kind, std::string_view payload, int passFd)
{
    if (payload.size() > kMaxFrame)
        return fail(fmt::format("a frame of {} bytes is more than the {} a frame may have", payload.size(), kMaxFrame));
    const auto size = static_cast<std::uint32_t>(payload.size());
    std::string frame;
    frame.reserve(5 + payload.size());
    for (int i = 0; i < 4; ++i)
        frame.push_back(static_cast<char>((size >> (8 * i)) & 0xff));
    frame.push_back(kind);
    frame.append(payload);
    std::string_view rest = frame;
    while (!rest.empty()) {
        ssize_t n = 0;
        if (passFd >= 0) {
            iovec io{const_cast<char*>(rest.data()), rest.size()};
            alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(int))> control{};
            msghdr message{};
            message.msg_iov = &io;
            message.msg_iovlen = 1;
            message.msg_control = control.data();
            message.msg_controllen = control.size();
            cmsghdr* c = CMSG_FIRSTHDR(&message);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            std::memcpy(CMSG_DATA(c), &passFd, sizeof(int));
            n = ::sendmsg(fd, &message, MSG_NOSIGNAL);
            if (n > 0)
                passFd = -1; // sent with the bytes taken
        } else {
            n = ::send(fd, rest.data(), rest.size(), MSG_NOSIGNAL);
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(n < 0 ? errnoText(errno) : std::string("nothing written"));
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

// Output of any size, in frames of at most 16 MiB (the reader appends them).
bool writeChunks(int fd, char kind, std::string_view bytes)
{
    constexpr std::size_t kChunk = 16u << 20;
    do {
        const std::string_view chunk = bytes.substr(0, kChunk);
        if (!writeFrame(fd, kind, chunk))
            return false;
        bytes.remove_prefix(chunk.size());
    } while (!bytes.empty());
    return true;
}

namespace {

// The payload's size, from a frame's header (its first four bytes, little-endian).
std::uint32_t frameSize(const std::array<char, 5>& header)
{
    std::uint32_t size = 0;
    for (std::size_t i = 0; i < 4; ++i)
        size |= static_cast<std::uint32_t>(static_cast<unsigned char>(header[i])) << (8 * i);
    return size;
}

// Waits until `fd` has something to read, by `deadline`. Errors: "timed out", or poll's.
Result<void> waitReadable(int fd, Clock::time_point deadline)
{
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        pollfd p{fd, POLLIN, 0};
        const int ready = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return fail(ready == 0 ? "timed out" : errnoText(errno));
        return {};
    }
}

// The payload of a frame whose header has been read: at most `maxSize` bytes.
Result<Frame> readPayload(int fd, const std::array<char, 5>& header, std::uint32_t maxSize,
                          std::optional<Clock::time_point> deadline)
{
    const std::uint32_t size = frameSize(header);
    if (size > maxSize)
        return fail(fmt::format("a frame of {} bytes is more than the {} a frame may have", size, maxSize));
    Frame frame{header[4], std::string(size, '\0')};
    if (auto read = readExactly(fd, frame.payload.data(), size, deadline); !read)
        return std::unexpected(read.error());
    return frame;
}

} // namespace

// Reads exactly `size` bytes; by `deadline` when it has one. Errors: "ended" at end of file, "timed out".
Result<void> readExactly(int fd, char* into, std::size_t size, std::optional<Clock::time_point> deadline)
{
    while (size > 0) {
        if (deadline) {
            if (auto ready = waitReadable(fd, *deadline); !ready)
                return ready;
        }
        const ssize_t n = ::recv(fd, into, size, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(errnoText(errno));
        if (n == 0)
            return fail("ended");
        into += n;
        size -= static_cast<std::size_t>(n);
    }
    return {};
}

Result<Frame> readFrame(int fd, std::optional<Clock::time_point> deadline)
{
    std::array<char, 5> header{};
    if (auto read = readExactly(fd, header.data(), header.size(), deadline); !read)
        return std::unexpected(read.error());
    return readPayload(fd, header, kMaxFrame, deadline);
}

// A frame whose first bytes may come with ancillary data (the writer's credentials, a descriptor): `onControl`
// sees each control message that came. By `deadline`; errors as readFrame's.
Result<Frame> readFrameWithControl(int fd, Clock::time_point deadline, std::uint32_t maxSize,
                                   const std::function<void(const cmsghdr&)>& onControl)
{
    if (auto ready = waitReadable(fd, deadline); !ready)
        return std::unexpected(ready.error());
    std::array<char, 5> header{};
    iovec io{header.data(), header.size()};
    // Room for credentials or a few descriptors; descriptors that do not fit are closed by the kernel.
    alignas(cmsghdr) std::array<char, CMSG_SPACE(sizeof(ucred)) + CMSG_SPACE(4 * sizeof(int))> control{};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    ssize_t n = 0;
    do {
        n = ::recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n < 0)
        return fail(errnoText(errno));
    for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c))
        onControl(*c);
    if (n == 0)
        return fail("ended");
    // The rest of the frame: from the same writer (a stream does not join writes of different credentials).
    if (auto rest = readExactly(fd, header.data() + n, header.size() - static_cast<std::size_t>(n), deadline); !rest)
        return std::unexpected(rest.error());
    return readPayload(fd, header, maxSize, deadline);
}

// The descriptors a control message passed (none unless it is SCM_RIGHTS), owned.
std::vector<UniqueFd> descriptorsOf(const cmsghdr& c)
{
    std::vector<UniqueFd> out;
    if (c.cmsg_level != SOL_SOCKET || c.cmsg_type != SCM_RIGHTS || c.cmsg_len < CMSG_LEN(0))
        return out;
    for (std::size_t i = 0; i < (c.cmsg_len - CMSG_LEN(0)) / sizeof(int); ++i) {
        int received = -1;
        std::memcpy(&received, CMSG_DATA(&c) + i * sizeof(int), sizeof(int));
        out.emplace_back(received);
    }
    return out;
}

// The first frame of a connection, and the one descriptor that came with its first bytes, if any: more than one
// are all closed.
Result<Frame> readFirstFrame(int fd, Clock::time_point deadline, UniqueFd& passed)
{
    return readFrameWithControl(fd, deadline, kMaxFrame, [&](const cmsghdr& c) {
        auto descriptors = descriptorsOf(c);
        if (descriptors.size() == 1 && !passed.valid())
            passed = std::move(descriptors.front());
    });
}

std::optional<FileId> fileId(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return FileId{st.st_dev, st.st_ino};
}

std::optional<std::string> whyNotTrusted(pid_t pid, uid_t uid, bool mustBeUnconfined,
                                         const std::vector<FileId>& programs)
{
    if (uid != ::getuid())
        return fmt::format("uid {} is another user", uid);
    if (pid <= 0)
        return std::string("the process is outside this one's pid namespace");
    const std::string proc = "/proc/" + std::to_string(pid);
    const auto theirs = fileId(proc + "/exe");
    if (!theirs || std::find(programs.begin(), programs.end(), *theirs) == programs.end())
        return fmt::format("pid {} does not run this executable", pid);
    const auto ownMounts = fileId("/proc/self/ns/mnt");
    const auto theirMounts = fileId(proc + "/ns/mnt");
    if (!ownMounts || !theirMounts || !(*ownMounts == *theirMounts))
        return fmt::format("pid {} is in another mount namespace", pid);
    const auto ownUsers = fileId("/proc/self/ns/user");
    const auto theirUsers = fileId(proc + "/ns/user");
    if (!ownUsers || !theirUsers || !(*ownUsers == *theirUsers))
        return fmt::format("pid {} is in another user namespace", pid);
    std::array<char, 16> root{};
    const ssize_t n = ::readlink((proc + "/root").c_str(), root.data(), root.size());
    if (n != 1 || root[0] != '/')
        return fmt::format("pid {} has another root folder", pid);
    if (mustBeUnconfined)
        return whyConfined(pid);
    return std::nullopt;
}

json environmentToJson(const Environment& environment)
{
    json out = json::object();
    for (const auto& [name, value] : environment)
        out[name] = value ? json(*value) : json(nullptr);
    return out;
}

Result<Environment> environmentFromJson(const json& in)
{
    if (!in.is_object())
        return fail("context: not an object");
    Environment out;
    for (const auto& [name, value] : in.items()) {
        if (value.is_null())
            out[name] = std::nullopt;
        else if (value.is_string())
            out[name] = value.get<std::string>();
        else
            return fail("context: " + name + " is neither text nor null");
    }
    return out;
}

} // namespace wire

namespace {

// How long a command waits for the helper's hello: a helper that socket activation starts for this very
// connection answers once it has started (tens of milliseconds); past this the command runs itself.
constexpr auto kHelloTimeout = std::chrono::seconds(2);

// The helper's hello, with the credentials the kernel attached to it (the receiving socket has SO_PASSCRED): the
// process that wrote it, whoever made the socket. A decline instead is an error saying why.
Result<ucred> readHello(int fd, Clock::time_point deadline)
{
    std::optional<ucred> credentials;
    auto frame = readFrameWithControl(fd, deadline, 4096, [&](const cmsghdr& c) {
        if (c.cmsg_level == SOL_SOCKET && c.cmsg_type == SCM_CREDENTIALS && c.cmsg_len == CMSG_LEN(sizeof(ucred))) {
            ucred found{};
            std::memcpy(&found, CMSG_DATA(&c), sizeof found);
            credentials = found;
        } else {
            descriptorsOf(c); // nothing is taken from a hello: closed
        }
    });
    if (!frame) {
        const std::string& why = frame.error().message;
        if (why == "timed out")
            return fail("no hello (timed out)");
        if (why == "ended")
            return fail("it ended the connection before its hello");
        return std::unexpected(frame.error());
    }
    if (frame->kind == kDeclined)
        return fail("it declined: " + frame->payload);
    if (frame->kind != kHello)
        return fail("it answered what this command does not read");
    if (!credentials)
        return fail("its hello came without its credentials");
    return *credentials;
}

} // namespace

Result<fs::path> socketPath()
{
    auto folder = privateRuntimeFolder();
    if (!folder)
        return std::unexpected(folder.error());
    return *folder / kSocketName;
}

bool disabledByEnvironment()
{
    const char* value = std::getenv("SANDBENCH_HELPER");
    return value && std::string_view(value) == "off";
}

const std::vector<std::string_view> kCommandLineVariables = {"SANDBENCH_STORE", "XDG_DATA_HOME"};

namespace {

void addVariables(Environment& out, const std::vector<std::string_view>& names)
{
    for (const auto name : names) {
        const std::string key(name);
        const char* value = std::getenv(key.c_str());
        out[key] = value ? std::optional<std::string>(value) : std::nullopt;
    }
}

} // namespace

Environment contextOfThisProcess()
{
    Environment out;
    addVariables(out, kContextVariables);
    return out;
}

Environment commandLineEnvironmentOfThisProcess()
{
    Environment out;
    addVariables(out, kContextVariables);
    addVariables(out, kCommandLineVariables);
    return out;
}

// --- the command's side ---

Result<Client> Client::connect()
{
    if (disabledByEnvironment())
        return fail("SANDBENCH_HELPER=off");
    auto folder = existingPrivateRuntimeFolder();
    if (!folder)
        return std::unexpected(folder.error());
    const fs::path path = *folder / kSocketName;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.native().size() >= sizeof address.sun_path)
        return fail(path.string() + ": too long a socket path");
    std::memcpy(address.sun_path, path.c_str(), path.native().size() + 1);
    UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!fd.valid())
        return fail("socket: " + errnoText(errno));
    // The helper's credentials come with its hello, set by the kernel (SO_PASSCRED): SO_PEERCRED would name
    // whoever listens, which under socket activation is systemd.
    const int on = 1;
    if (::setsockopt(fd.get(), SOL_SOCKET, SO_PASSCRED, &on, sizeof on) != 0)
        return fail("SO_PASSCRED: " + errnoText(errno));
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
        return fail(path.string() + ": " + errnoText(errno));
    auto hello = readHello(fd.get(), Clock::now() + kHelloTimeout);
    if (!hello)
        return fail("the helper on " + path.string() + ": " + hello.error().message);
    // The helper runs the command line's program (util/program_files.h): this one, or the one this small client
    // starts for what it does not hand over.
    auto program = programs::locate(programs::kCommandLine);
    const auto programId = program ? fileId(program->string()) : std::nullopt;
    if (!programId)
        return fail("the helper on " + path.string() + " cannot be checked: " + (program ? program->string() + " is gone" : program.error().message));
    if (auto why = whyNotTrusted(hello->pid, hello->uid, false, {*programId}))
        return fail("the helper on " + path.string() + " is not this user's sandbench: " + *why);
    return Client(std::move(fd));
}

std::expected<Reply, AskError> Client::askCommandLine(const std::vector<std::string>& args,
                                                      std::chrono::milliseconds acceptTimeout)
{
    auto utf8 = [](const std::string& text) { return utf8::firstInvalid(text) == std::string_view::npos; };
    if (!std::all_of(args.begin(), args.end(), utf8))
        return std::unexpected(AskError{"text that is not UTF-8", false});
    const Environment environment = commandLineEnvironmentOfThisProcess();
    for (const auto& [name, value] : environment) {
        if (value && !utf8(*value))
            return std::unexpected(AskError{"$" + name + " is not UTF-8", false});
    }
    const UniqueFd folder(::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!folder.valid())
        return std::unexpected(AskError{"the working folder: " + errnoText(errno), false});
    const json line{{"args", args}, {"environment", environmentToJson(environment)}};
    if (auto sent = writeFrame(m_fd.get(), kCommandLine, line.dump(), folder.get()); !sent)
        return std::unexpected(AskError{"sending the command line: " + sent.error().message, false});
    return awaitReply(acceptTimeout);
}

std::expected<Reply, AskError> Client::awaitReply(std::chrono::milliseconds acceptTimeout)
{
    auto answer = readFrame(m_fd.get(), Clock::now() + acceptTimeout);
    if (!answer)
        return std::unexpected(AskError{"waiting for the helper: " + answer.error().message, false});
    if (answer->kind == kDeclined)
        return std::unexpected(AskError{"the helper declined: " + answer->payload, false});
    if (answer->kind != kAccepted)
        return std::unexpected(AskError{"the helper answered what this command does not read", false});
    Reply reply;
    for (;;) {
        auto frame = readFrame(m_fd.get());
        if (!frame)
            return std::unexpected(AskError{"the helper ended before it answered (" + frame.error().message
                                                + "): the run may have run, and may be in the store",
                                            true});
        if (frame->kind == kOut) {
            reply.out += frame->payload;
        } else if (frame->kind == kErr) {
            reply.err += frame->payload;
        } else if (frame->kind == kStatus) {
            const json status = json::parse(frame->payload, nullptr, false);
            if (!status.is_object() || !status.contains("status") || !status["status"].is_number_integer())
                return std::unexpected(AskError{"the helper's exit status is not one this command reads", true});
            reply.status = status["status"].get<int>();
            return reply;
        } else {
            return std::unexpected(AskError{"the helper answered what this command does not read", true});
        }
    }
}

} // namespace sb::helper
