// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace gpudesk {

// Amounts of resources by name as quotas and queues write them ("requests.nvidia.com/gpu",
// "cpu", "memory", "pods"), each in thousandths of its unit: one integer type for CPU
// (millicores), GPUs, counts and bytes alike, so sums and comparisons need no per-resource code.
// A thousandth of a byte is odd but harmless: qint64 still holds 8 PiB of memory.
using ResourceAmounts = QMap<QString, qint64>;

namespace quantity {

// A Kubernetes resource.Quantity in thousandths of its unit ("500m" → 500, "2" → 2000,
// "16Gi" → 16 × 2^30 × 1000), rounded up as the API rounds; nullopt when the text is not a
// quantity the API accepts (its grammar: sign, digits, one suffix or an exponent) or is
// negative. The one parser for quantities: the decoder reads every pod's requests with it (so no
// regular expression, no allocation), forms and quotas read what people type.
template <typename Text> std::optional<qint64> parseMilliOf(const Text &text)
{
    qsizetype begin = 0, end = qsizetype(text.size());
    const auto at = [&](qsizetype i) -> char16_t {
        if constexpr (std::is_same_v<Text, QStringView>)
            return text[i].unicode();
        else
            return char16_t(static_cast<unsigned char>(text[i]));
    };
    const auto space = [](char16_t c) { return c == u' ' || (c >= u'\t' && c <= u'\r'); };
    while (begin < end && space(at(begin)))
        ++begin;
    while (end > begin && space(at(end - 1)))
        --end;
    qsizetype i = begin;
    if (i < end && at(i) == u'+')
        ++i;
    long double number = 0, scale = 1;
    bool digits = false, dot = false;
    for (; i < end; ++i) {
        const char16_t c = at(i);
        if (c >= u'0' && c <= u'9') {
            digits = true;
            number = number * 10 + (c - u'0');
            if (dot)
                scale *= 10;
        } else if (c == u'.' && !dot) {
            dot = true;
        } else {
            break;
        }
    }
    if (!digits)
        return std::nullopt;
    number /= scale;
    long double mult = 1;
    const qsizetype rest = end - i;
    const auto suffixIs = [&](const char *s) {
        qsizetype n = 0;
        for (; s[n]; ++n)
            if (n >= rest || at(i + n) != char16_t(s[n]))
                return false;
        return n == rest;
    };
    static const std::pair<const char *, long double> suffixes[] = {{"n", 1e-9L},
                                                                    {"u", 1e-6L},
                                                                    {"m", 1e-3L},
                                                                    {"k", 1e3L},
                                                                    {"M", 1e6L},
                                                                    {"G", 1e9L},
                                                                    {"T", 1e12L},
                                                                    {"P", 1e15L},
                                                                    {"E", 1e18L},
                                                                    {"Ki", 1024.0L},
                                                                    {"Mi", 1048576.0L},
                                                                    {"Gi", 1073741824.0L},
                                                                    {"Ti", 1099511627776.0L},
                                                                    {"Pi", 1125899906842624.0L},
                                                                    {"Ei", 1152921504606846976.0L}};
    if (rest > 0) {
        bool known = false;
        for (const auto &[s, f] : suffixes) {
            if (suffixIs(s)) {
                mult = f;
                known = true;
                break;
            }
        }
        if (!known) {
            // An exponent: "1e3", "5E-2".
            if ((at(i) != u'e' && at(i) != u'E') || rest < 2)
                return std::nullopt;
            qsizetype j = i + 1;
            const bool negative = at(j) == u'-';
            if (at(j) == u'-' || at(j) == u'+')
                ++j;
            if (j == end || end - j > 3)
                return std::nullopt;
            int exp = 0;
            for (; j < end; ++j) {
                if (at(j) < u'0' || at(j) > u'9')
                    return std::nullopt;
                exp = exp * 10 + (at(j) - u'0');
            }
            if (exp > 30)
                return std::nullopt;
            mult = std::pow(10.0L, negative ? -exp : exp);
        }
    }
    const long double milli = std::ceil(number * mult * 1000.0L - 1e-6L);
    if (milli > static_cast<long double>(std::numeric_limits<qint64>::max() / 2))
        return std::nullopt;
    return static_cast<qint64>(milli);
}

inline std::optional<qint64> parseMilli(QStringView text)
{
    return parseMilliOf(text);
}

// Resources counted in bytes (memory, storage), written with binary suffixes.
inline bool isBytes(const QString &resource)
{
    return resource.endsWith(QLatin1String("memory")) ||
           resource.endsWith(QLatin1String("storage"));
}

// Resources a person writes in cores, where thousandths make sense ("500m").
inline bool isCpu(const QString &resource)
{
    return resource == QLatin1String("cpu") || resource.endsWith(QLatin1String(".cpu"));
}

// The amount as a person writes it for that resource: "500m" or "12" for CPU, "64Gi" for
// memory (the largest binary unit it is a whole number of, else "1.5Gi"-style), whole numbers
// for GPUs and counts.
inline QString format(const QString &resource, qint64 milli)
{
    if (isBytes(resource)) {
        const qint64 bytes = (milli + 999) / 1000;
        static const std::pair<const char *, qint64> units[] = {
            {"Ti", 1LL << 40}, {"Gi", 1LL << 30}, {"Mi", 1LL << 20}, {"Ki", 1LL << 10}};
        for (const auto &[name, size] : units) {
            if (bytes >= size && bytes % size == 0)
                return QString::number(bytes / size) + QLatin1String(name);
        }
        for (const auto &[name, size] : units) {
            if (bytes >= size)
                return QString::number(double(bytes) / double(size), 'g', 4) + QLatin1String(name);
        }
        return QString::number(bytes);
    }
    if (milli % 1000 == 0)
        return QString::number(milli / 1000);
    if (isCpu(resource))
        return QString::number(milli) + u'm';
    return QString::number(double(milli) / 1000.0, 'g', 6);
}

// "requests.nvidia.com/gpu" and "nvidia.com/gpu" name the same thing for a quota: the request.
inline QString baseName(const QString &resource)
{
    if (resource.startsWith(QLatin1String("requests.")))
        return resource.mid(9);
    return resource;
}

} // namespace quantity

// The amount of `resource` in `amounts` under its quota names: "requests.cpu" or plain "cpu".
inline std::optional<qint64> amountOf(const ResourceAmounts &amounts, const QString &resource)
{
    const QString base = quantity::baseName(resource);
    for (const QString &name : {QString(QStringLiteral("requests.") + base), base}) {
        const auto it = amounts.constFind(name);
        if (it != amounts.cend())
            return *it;
    }
    return std::nullopt;
}

} // namespace gpudesk
