// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborpulltimes.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace gpudesk {

namespace {

QString tagKey(const HarborArtifact &a, const HarborTag &t)
{
    return a.repository + u':' + t.name;
}

QString artifactKey(const HarborArtifact &a)
{
    return a.repository + u'@' + a.digest;
}

} // namespace

HarborPullTimes::HarborPullTimes(QString file) : m_file(std::move(file))
{
    QFile f(m_file);
    if (!f.open(QIODevice::ReadOnly))
        return;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    for (const QJsonValue &w : o.value(QLatin1String("reads")).toArray()) {
        const QJsonArray pair = w.toArray();
        if (pair.size() == 2)
            m_windows.append({qint64(pair[0].toDouble()), qint64(pair[1].toDouble())});
    }
    const QJsonObject pulled = o.value(QLatin1String("pulled")).toObject();
    for (auto it = pulled.begin(); it != pulled.end(); ++it)
        m_pulled.insert(it.key(), qint64(it.value().toDouble()));
}

bool HarborPullTimes::ours(const QDateTime &pulled) const
{
    if (!pulled.isValid())
        return false;
    const qint64 ms = pulled.toMSecsSinceEpoch();
    for (const auto &[from, to] : m_windows)
        if (ms >= from && ms <= to)
            return true;
    return false;
}

void HarborPullTimes::resolve(QList<HarborArtifact> *artifacts) const
{
    const auto before = [this](const QString &key) {
        const qint64 ms = m_pulled.value(key, 0);
        return ms > 0 ? QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC) : QDateTime();
    };
    for (HarborArtifact &a : *artifacts) {
        if (ours(a.pulled))
            a.pulled = before(artifactKey(a));
        for (HarborTag &t : a.tags)
            if (ours(t.pulled))
                t.pulled = before(tagKey(a, t));
    }
}

void HarborPullTimes::remember(const QList<HarborArtifact> &resolved, const QDateTime &readStart,
                               const QDateTime &readEnd)
{
    // Merged, not replaced: an artifact this read did not get (a repository Harbor did not
    // answer for) keeps what an earlier read saw.
    for (const HarborArtifact &a : resolved) {
        if (a.pulled.isValid())
            m_pulled.insert(artifactKey(a), a.pulled.toMSecsSinceEpoch());
        for (const HarborTag &t : a.tags)
            if (t.pulled.isValid())
                m_pulled.insert(tagKey(a, t), t.pulled.toMSecsSinceEpoch());
    }
    // A little margin: Harbor stamps a pull when the registry's notification arrives. A real
    // pull inside a window is taken for ours: windows last seconds, a read of 10,000 tags minutes.
    m_windows.append({readStart.toMSecsSinceEpoch(), readEnd.toMSecsSinceEpoch() + 10000});
    while (m_windows.size() > MaxWindows)
        m_windows.removeFirst();
    QJsonArray reads;
    for (const auto &[from, to] : std::as_const(m_windows))
        reads.append(QJsonArray{double(from), double(to)});
    QJsonObject pulled;
    for (auto it = m_pulled.cbegin(); it != m_pulled.cend(); ++it)
        pulled.insert(it.key(), double(it.value()));
    QDir().mkpath(QFileInfo(m_file).absolutePath());
    QSaveFile f(m_file);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("reads"), reads},
                                          {QStringLiteral("pulled"), pulled}})
                    .toJson(QJsonDocument::Compact));
        f.commit();
    }
}

} // namespace gpudesk
