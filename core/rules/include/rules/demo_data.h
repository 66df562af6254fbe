#pragma once

// Synthetic card transactions with a fraud label, for the demo and for benchmarks: deterministic (the same
// rows and seed give the same bytes on any machine: integer arithmetic only, no floating-point library
// calls), streamed, so a million rows cost no memory. resources/demo/transactions.csv is
// demoTransactionsCsv(kDemoRows, kDemoSeed); a test checks that it still is.
//
// Columns: id, created (RFC 3339), amount, currency, country (the merchant's), card_country, ip_country,
// merchant_category, channel (pos, web, app), card_present, hour (0-23, of created), account_age_days,
// txn_count_24h, email_domain, device_new, is_fraud. About 2.5 % are fraud, and fraud looks like fraud
// in the usual ways (larger amounts, foreign cards, night hours, new accounts and devices, bursts, risky
// categories and disposable e-mail domains), never all at once, so rules catch some and hurt some.

#include <cstdint>
#include <ostream>
#include <string>

namespace sb::rules {

inline constexpr std::uint64_t kDemoRows = 5000;
inline constexpr std::uint64_t kDemoSeed = 20240501;

// The header and `rows` records as CSV (LF line ends).
void writeDemoTransactions(std::ostream& out, std::uint64_t rows, std::uint64_t seed);
std::string demoTransactionsCsv(std::uint64_t rows, std::uint64_t seed);

// A first_match rule set of `rules` rules over these columns (each an amount threshold, a country and a range
// of hours; every tenth disabled), for scale tests and benches: the demo's rule sets hold a dozen rules, an
// analyst's may hold tens of thousands. 40 000 rules take about 4.0 MB, under the 4 MiB a rule set may have.
std::string generatedRuleSetYaml(std::size_t rules);

} // namespace sb::rules
