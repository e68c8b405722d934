// SPDX-License-Identifier: GPL-3.0-or-later
#include "yamlconvert.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace gpudesk {

namespace {

// nlohmann::json keeps keys sorted, which is also how kubectl prints them.
using ordered = nlohmann::json;

void writeNode(YAML::Emitter &out, const ordered &v)
{
    switch (v.type()) {
    case ordered::value_t::object:
        out << YAML::BeginMap;
        for (auto it = v.begin(); it != v.end(); ++it) {
            out << YAML::Key << it.key() << YAML::Value;
            writeNode(out, it.value());
        }
        out << YAML::EndMap;
        break;
    case ordered::value_t::array:
        out << YAML::BeginSeq;
        for (const auto &item : v)
            writeNode(out, item);
        out << YAML::EndSeq;
        break;
    case ordered::value_t::string: {
        const auto &s = v.get_ref<const std::string &>();
        // Strings that YAML would read as another type keep their quotes ("true", "8", "").
        const bool ambiguous = s.empty() || s == "true" || s == "false" || s == "null" ||
                               s == "yes" || s == "no" || s == "~" ||
                               s.find_first_not_of("0123456789.-+eE") == std::string::npos;
        if (s.find('\n') != std::string::npos)
            out << YAML::Literal << s;
        else if (ambiguous)
            out << YAML::DoubleQuoted << s;
        else
            out << s;
        break;
    }
    case ordered::value_t::boolean:
        out << v.get<bool>();
        break;
    case ordered::value_t::number_integer:
        out << v.get<long long>();
        break;
    case ordered::value_t::number_unsigned:
        out << v.get<unsigned long long>();
        break;
    case ordered::value_t::number_float:
        out << v.get<double>();
        break;
    default:
        out << YAML::Null;
        break;
    }
}

} // namespace

QString objectYaml(const QByteArray &json, bool withManagedFields, QString *error)
{
    ordered object = ordered::parse(json.begin(), json.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
        if (error)
            *error = QStringLiteral("the server's answer is not a JSON object");
        return {};
    }
    if (!withManagedFields && object.contains("metadata") && object["metadata"].is_object())
        object["metadata"].erase("managedFields");
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetSeqFormat(YAML::Block);
    out.SetMapFormat(YAML::Block);
    writeNode(out, object);
    return QString::fromUtf8(out.c_str()) + u'\n';
}

} // namespace gpudesk
