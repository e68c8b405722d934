// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMap>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <cmath>
#include <limits>
#include <optional>

namespace gpudesk {

// Amounts of resources by name as quotas and queues write them ("requests.nvidia.com/gpu",
// "cpu", "memory", "pods"), each in thousandths of its unit: one integer type for CPU
// (millicores), GPUs, counts and bytes alike, so sums and comparisons need no per-resource code.
// A thousandth of a byte is odd but harmless: qint64 still holds 8 PiB of memory.
using ResourceAmounts = QMap<QString, qint64>;

namespace quantity {

// A Kubernetes resource.Quantity in thousandths of its unit ("500m" → 500, "2" → 2000,
// "16Gi" → 16 × 2^30 × 1000), rounded up as the API rounds; nullopt when the text is not a
// quantity the API accepts (its grammar: sign, digits, one suffix) or is negative.
inline std::optional<qint64> parseMilli(const QString &text)
{
    static const QRegularExpression grammar(
        QStringLiteral("^\\+?([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|["
                       "eE]([+-]?[0-9]+))?$"));
    const QRegularExpressionMatch m = grammar.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const long double number = m.captured(1).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    long double mult = 1;
    const QString suffix = m.captured(2);
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
    for (const auto &[s, f] : suffixes)
        if (suffix == QLatin1String(s))
            mult = f;
    if (!m.captured(3).isEmpty()) {
        const int exp = m.captured(3).toInt(&ok);
        if (!ok || exp > 30 || exp < -30)
            return std::nullopt;
        mult = std::pow(10.0L, exp);
    }
    const long double milli = std::ceil(number * mult * 1000.0L - 1e-6L);
    if (milli > static_cast<long double>(std::numeric_limits<qint64>::max() / 2))
        return std::nullopt;
    return static_cast<qint64>(milli);
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
