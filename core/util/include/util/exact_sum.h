#pragma once

// The exact sum of doubles, rounded once when read: the same value whatever the order the terms were added in
// and however they were split into parts summed apart and then added together. That is what makes a sum over
// a dataset cut into shards (each summed on its own node) equal to the sum over the whole of it.
//
// The value is kept as a fixed-point integer in units of 2^-1074 (the smallest double), in 32-bit digits held
// by 64-bit limbs: a term adds to at most three limbs without carrying, and carries are propagated every 2^30
// terms, long before a limb could overflow. 68 limbs cover every finite double's bits and the carries of 2^64
// terms. Non-finite terms are the caller's to refuse; they are ignored here.

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb {

class ExactSum {
    __extension__ typedef unsigned __int128 Wide;

public:
    void add(double x)
    {
        const auto bits = std::bit_cast<std::uint64_t>(x);
        const auto biased = static_cast<int>((bits >> 52) & 0x7ff);
        std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
        if (biased == 0x7ff || (biased == 0 && mantissa == 0))
            return; // not finite, or a zero
        // |x| * 2^1074 = mantissa * 2^shift: a subnormal's mantissa as it is, a normal one's with its leading 1.
        int shift = 0;
        if (biased > 0) {
            mantissa |= std::uint64_t{1} << 52;
            shift = biased - 1;
        }
        const auto limb = static_cast<std::size_t>(shift / 32);
        const Wide wide = static_cast<Wide>(mantissa) << (shift % 32);
        const std::int64_t sign = (bits >> 63) != 0 ? -1 : 1;
        for (std::size_t k = 0; k < 3 && limb + k < kLimbs; ++k)
            m_limbs[limb + k] += sign * static_cast<std::int64_t>((wide >> (32 * k)) & 0xffffffffu);
        if (++m_pending == kCarryEvery)
            normalize();
    }

    void add(const ExactSum& other)
    {
        ExactSum o = other;
        o.normalize();
        normalize();
        for (std::size_t i = 0; i < kLimbs; ++i)
            m_limbs[i] += o.m_limbs[i];
        normalize();
    }

    // The sum rounded to the nearest double (ties to even); ±inf beyond the doubles' range.
    double value() const
    {
        ExactSum s = *this;
        s.normalize();
        const bool negative = s.m_limbs[kLimbs - 1] < 0;
        if (negative) {
            for (auto& l : s.m_limbs)
                l = -l;
            s.normalize();
        }
        std::size_t top = kLimbs;
        while (top > 0 && s.m_limbs[top - 1] == 0)
            --top;
        if (top == 0)
            return 0.0;
        const std::size_t h = top - 1;
        // The top three limbs (96 bits), the bits below them only as a sticky bit.
        Wide head = 0;
        for (std::size_t k = 0; k < 3; ++k) {
            head <<= 32;
            if (h >= k)
                head |= static_cast<std::uint32_t>(s.m_limbs[h - k]);
        }
        bool sticky = false;
        for (std::size_t i = 0; i + 2 < h; ++i)
            sticky = sticky || s.m_limbs[i] != 0;
        int length = 0;
        for (Wide t = head; t != 0; t >>= 1)
            ++length;
        int scale = 32 * (static_cast<int>(h) - 2) - 1074;
        if (length > 64) {
            const int drop = length - 64;
            sticky = sticky || (head & ((static_cast<Wide>(1) << drop) - 1)) != 0;
            head >>= drop;
            scale += drop;
        }
        auto bits = static_cast<std::uint64_t>(head);
        if (sticky)
            bits |= 1; // below the rounding position: breaks a tie the way the dropped bits would
        const double magnitude = std::ldexp(static_cast<double>(bits), scale);
        return negative ? -magnitude : magnitude;
    }

    // A text form that fromText reads back exactly: "i:d" pairs of the non-zero limbs, by index.
    std::string toText() const
    {
        ExactSum s = *this;
        s.normalize();
        std::string out;
        for (std::size_t i = 0; i < kLimbs; ++i) {
            if (s.m_limbs[i] == 0)
                continue;
            if (!out.empty())
                out += ',';
            out += std::to_string(i) + ':' + std::to_string(s.m_limbs[i]);
        }
        return out;
    }

    // nullopt when `text` is not of toText's form.
    static std::optional<ExactSum> fromText(std::string_view text)
    {
        ExactSum s;
        while (!text.empty()) {
            const std::size_t comma = text.find(',');
            const std::string_view pair = text.substr(0, comma);
            text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
            if (comma != std::string_view::npos && text.empty())
                return std::nullopt;
            const std::size_t colon = pair.find(':');
            if (colon == std::string_view::npos)
                return std::nullopt;
            std::size_t index = 0;
            std::int64_t digit = 0;
            const std::string_view a = pair.substr(0, colon), b = pair.substr(colon + 1);
            const auto whole = [](std::string_view part, auto& value) {
                const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
                return !part.empty() && error == std::errc() && end == part.data() + part.size();
            };
            if (!whole(a, index) || !whole(b, digit) || index >= kLimbs)
                return std::nullopt;
            const bool top = index == kLimbs - 1;
            if ((!top && (digit < 0 || digit > 0xffffffffll)) || (top && (digit < -(1ll << 40) || digit > (1ll << 40))))
                return std::nullopt;
            s.m_limbs[index] += digit;
        }
        s.normalize();
        return s;
    }

    friend bool operator==(const ExactSum& a, const ExactSum& b) { return a.toText() == b.toText(); }

private:
    static constexpr std::size_t kLimbs = 68;
    static constexpr std::uint32_t kCarryEvery = 1u << 30;

    // Every limb but the top one into [0, 2^32); the top one carries the sign.
    void normalize()
    {
        for (std::size_t i = 0; i + 1 < kLimbs; ++i) {
            const std::int64_t carry = m_limbs[i] >> 32; // floor division by 2^32
            m_limbs[i] -= carry * (std::int64_t{1} << 32);
            m_limbs[i + 1] += carry;
        }
        m_pending = 0;
    }

    std::array<std::int64_t, kLimbs> m_limbs{};
    std::uint32_t m_pending = 0;
};

} // namespace sb
