#pragma once

// A job's folder in the spool (cluster/config.h): the files the submitting command and its tasks on the nodes
// share. A file is written aside and renamed, so that a reader on any node sees all of it or none; the folder
// is removed when the command is done with it, unless kept for someone to read its logs.

#include "util/error.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace sb::cluster {

Result<void> writeSpoolFile(const std::filesystem::path& file, const std::string& text);
// The JSON in `file`; an error naming the file when it cannot be read or is not JSON.
Result<nlohmann::json> readSpoolJson(const std::filesystem::path& file);

class JobFolder {
public:
    // A new folder PREFIX-UUID in `spool`.
    static Result<JobFolder> create(const std::filesystem::path& spool, std::string_view prefix);
    ~JobFolder();
    JobFolder(JobFolder&& other) noexcept;
    JobFolder& operator=(JobFolder&&) = delete;
    JobFolder(const JobFolder&) = delete;
    JobFolder& operator=(const JobFolder&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    void keep() { m_keep = true; }

private:
    explicit JobFolder(std::filesystem::path path) : m_path(std::move(path)) {}
    std::filesystem::path m_path;
    bool m_keep = false;
};

} // namespace sb::cluster
