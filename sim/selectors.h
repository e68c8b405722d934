// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace sim {

// labelSelector as the API server accepts it: =, ==, !=, in, notin, exists, !exists.
class LabelSelector
{
public:
    enum class Op
    {
        Equals,
        NotEquals,
        In,
        NotIn,
        Exists,
        DoesNotExist
    };
    struct Requirement
    {
        std::string key;
        Op op;
        std::vector<std::string> values;
    };

    static std::optional<LabelSelector> parse(const QString &text, QString *error);
    // A metav1.LabelSelector object (matchLabels, matchExpressions), as in a
    // PodDisruptionBudget's spec.selector; none when an operator is unknown.
    static std::optional<LabelSelector> fromObject(const nlohmann::json &selector);
    bool matches(const nlohmann::json &labels) const;
    bool isEmpty() const { return m_requirements.empty(); }
    const std::vector<Requirement> &requirements() const { return m_requirements; }

private:
    std::vector<Requirement> m_requirements;
};

// fieldSelector: a per-resource set of supported fields, with =, == and !=.
class FieldSelector
{
public:
    struct Term
    {
        std::string field;
        bool negate;
        std::string value;
    };

    static std::optional<FieldSelector> parse(const QString &text, const QString &resource,
                                              QString *error);
    bool matches(const nlohmann::json &object) const;
    bool isEmpty() const { return m_terms.empty(); }
    const std::vector<Term> &terms() const { return m_terms; }

    // The value a field has on an object, as the API server compares it (missing → "").
    static std::string fieldValue(const nlohmann::json &object, const std::string &field);

private:
    std::vector<Term> m_terms;
};

} // namespace sim
