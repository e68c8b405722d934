// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace gpudesk {

// The user's job templates: each a YAML file of the job as the form or the YAML tab made it,
// named after the template, in gpudesk's data folder (job-templates/). Plain files, so that they
// can be shared, kept in git, or given to `gpudesk --submit` as they are. Written whole or not at
// all, readable by the user alone (a template may hold a variable's token).
class JobTemplates
{
    Q_DECLARE_TR_FUNCTIONS(JobTemplates)

public:
    explicit JobTemplates(const QString &dir = defaultDir());
    static QString defaultDir();
    QString dir() const { return m_dir; }

    QStringList names() const; // sorted as the user reads them
    bool contains(const QString &name) const;
    QString load(const QString &name, QString *error) const;
    bool save(const QString &name, const QString &yaml, QString *error) const;
    bool remove(const QString &name, QString *error) const;
    // Why a name cannot be a template's ("" when it can): it is a file's name.
    static QString nameError(const QString &name);

private:
    QString fileOf(const QString &name) const;

    QString m_dir;
};

} // namespace gpudesk
