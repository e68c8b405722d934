// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobtemplates.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>

namespace gpudesk {

namespace {

const QLatin1String Suffix(".yaml");
constexpr qint64 MaxTemplateBytes = 1 << 20; // a job's YAML is kilobytes

// "a9" before "a10", case aside: as people number their templates. (QCollator's numeric mode
// does nothing in the C locale.)
bool naturalLess(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit())
                ++ei;
            while (ej < b.size() && b[ej].isDigit())
                ++ej;
            // The numbers' digits without leading zeros: the shorter is the smaller.
            qsizetype si = i, sj = j;
            while (si + 1 < ei && a[si] == u'0')
                ++si;
            while (sj + 1 < ej && b[sj] == u'0')
                ++sj;
            const QStringView ta = QStringView(a).mid(si, ei - si);
            const QStringView tb = QStringView(b).mid(sj, ej - sj);
            if (ta.size() != tb.size())
                return ta.size() < tb.size();
            if (ta != tb)
                return ta < tb;
            i = ei;
            j = ej;
            continue;
        }
        const int c = QString::compare(a.mid(i, 1), b.mid(j, 1), Qt::CaseInsensitive);
        if (c != 0)
            return c < 0;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

} // namespace

JobTemplates::JobTemplates(const QString &dir) : m_dir(dir) {}

QString JobTemplates::defaultDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/job-templates");
}

QString JobTemplates::fileOf(const QString &name) const
{
    return m_dir + u'/' + name + Suffix;
}

QString JobTemplates::nameError(const QString &name)
{
    if (name.trimmed().isEmpty())
        return tr("A template needs a name.");
    if (name != name.trimmed())
        return tr("A template's name does not start or end with a space.");
    if (name.startsWith(u'.'))
        return tr("A template's name does not start with a dot.");
    if (name.size() > 100)
        return tr("A template's name is at most 100 characters.");
    for (const QChar c : name)
        if (c == u'/' || c == u'\\' || c.category() == QChar::Other_Control)
            return tr("A template's name has no slash, backslash or control character.");
    return {};
}

QStringList JobTemplates::names() const
{
    QStringList out;
    const QStringList files =
        QDir(m_dir).entryList({QStringLiteral("*.yaml")}, QDir::Files | QDir::Readable);
    for (const QString &f : files)
        out << f.chopped(Suffix.size());
    std::sort(out.begin(), out.end(), naturalLess);
    return out;
}

bool JobTemplates::contains(const QString &name) const
{
    return nameError(name).isEmpty() && QFile::exists(fileOf(name));
}

QString JobTemplates::load(const QString &name, QString *error) const
{
    if (const QString why = nameError(name); !why.isEmpty()) {
        *error = why;
        return {};
    }
    QFile f(fileOf(name));
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read the template %1: %2").arg(f.fileName(), f.errorString());
        return {};
    }
    if (f.size() > MaxTemplateBytes) {
        *error = tr("The template %1 is over 1 MiB: not a job's YAML.").arg(f.fileName());
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

bool JobTemplates::save(const QString &name, const QString &yaml, QString *error) const
{
    if (const QString why = nameError(name); !why.isEmpty()) {
        *error = why;
        return false;
    }
    if (!QDir().mkpath(m_dir)) {
        *error = tr("Cannot make the folder %1.").arg(m_dir);
        return false;
    }
    QSaveFile f(fileOf(name));
    if (!f.open(QIODevice::WriteOnly)) {
        *error = tr("Cannot write the template %1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(yaml.toUtf8());
    if (!f.commit()) {
        *error = tr("Cannot write the template %1: %2").arg(f.fileName(), f.errorString());
        return false;
    }
    return true;
}

bool JobTemplates::remove(const QString &name, QString *error) const
{
    QFile f(fileOf(name));
    if (!nameError(name).isEmpty() || !f.remove()) {
        *error = tr("Cannot remove the template %1: %2").arg(name, f.errorString());
        return false;
    }
    return true;
}

} // namespace gpudesk
