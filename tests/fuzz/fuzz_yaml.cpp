// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the YAML view and editor of objects: any JSON object the API server sends is
// shown as YAML, and that YAML applied unchanged must give the same object back — a value
// read back as another type (a string "1.0" as a number, "yes" as true) would change an
// object its user did not touch. YAML a person typed is also read on its own.
#include "yamlconvert.h"

#include <nlohmann/json.hpp>

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    gpudesk::objectJson(QString::fromUtf8(input), &error);

    const QString yaml = gpudesk::objectYaml(input, true, &error);
    if (!error.isEmpty())
        return 0;
    QString back;
    const QByteArray json = gpudesk::objectJson(yaml, &back);
    // gpudesk's own YAML must read back — unless it nests past what yaml-cpp reads (hundreds of
    // flow levels), which is said in words.
    if (back.startsWith(QLatin1String("the text nests too deeply")))
        return 0;
    if (!back.isEmpty())
        __builtin_trap();
    const auto before = nlohmann::json::parse(input.begin(), input.end(), nullptr, false);
    const auto after = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (before != after)
        __builtin_trap();
    return 0;
}
