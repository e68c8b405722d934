// SPDX-License-Identifier: GPL-3.0-or-later
#include "appsettings.h"

#include <QSettings>

#include <algorithm>

namespace gpudesk {

namespace {

QVariant get(const QString &key, const QVariant &fallback = {})
{
    return QSettings().value(key, fallback);
}

void set(const QString &key, const QVariant &value)
{
    QSettings().setValue(key, value);
}

// An empty text removes the key: its default (or the wider setting) applies again.
void setOrRemove(QSettings &s, const QString &key, const QString &value)
{
    if (value.trimmed().isEmpty())
        s.remove(key);
    else
        s.setValue(key, value.trimmed());
}

QString contextKey(const QString &context, const char *name)
{
    return QStringLiteral("contexts/%1/").arg(context) + QLatin1String(name);
}

QString sshKey(const QString &context, const char *name)
{
    return QStringLiteral("ssh/%1/").arg(context) + QLatin1String(name);
}

} // namespace

QString AppSettings::kubeconfig()
{
    return get(QStringLiteral("session/kubeconfig")).toString();
}

void AppSettings::setKubeconfig(const QString &path)
{
    set(QStringLiteral("session/kubeconfig"), path);
}

QString AppSettings::lastContext()
{
    return get(QStringLiteral("session/lastContext")).toString();
}

void AppSettings::setLastContext(const QString &context)
{
    set(QStringLiteral("session/lastContext"), context);
}

QString AppSettings::prometheusFor(const QString &context)
{
    const QString own = prometheusOfContext(context);
    return !own.isEmpty() ? own : prometheusForAll();
}

QString AppSettings::prometheusOfContext(const QString &context)
{
    return context.isEmpty() ? QString() : get(contextKey(context, "prometheus")).toString();
}

void AppSettings::setPrometheusOfContext(const QString &context, const QString &url)
{
    QSettings s;
    setOrRemove(s, contextKey(context, "prometheus"), url);
}

QString AppSettings::prometheusForAll()
{
    return get(QStringLiteral("prometheus/url")).toString();
}

AppSettings::Ssh AppSettings::ssh(const QString &context)
{
    return {
        get(sshKey(context, "user")).toString(), get(sshKey(context, "identityFile")).toString(),
        get(sshKey(context, "proxyJump")).toString(), get(sshKey(context, "config")).toString()};
}

AppSettings::Storage AppSettings::storage(const QString &context)
{
    const QString key = QStringLiteral("storage/%1/").arg(context);
    Storage st{get(key + QLatin1String("userRoots")).toStringList(),
               get(key + QLatin1String("groupRoots")).toStringList(),
               get(key + QLatin1String("node")).toString()};
    if (st.userRoots.isEmpty() && st.groupRoots.isEmpty()) {
        st.userRoots = {QStringLiteral("/mnt/user")};
        st.groupRoots = {QStringLiteral("/mnt/share")};
    }
    return st;
}

void AppSettings::setStorage(const QString &context, const Storage &st)
{
    QSettings s;
    const QString key = QStringLiteral("storage/%1/").arg(context);
    s.setValue(key + QLatin1String("userRoots"), st.userRoots);
    s.setValue(key + QLatin1String("groupRoots"), st.groupRoots);
    setOrRemove(s, key + QLatin1String("node"), st.node);
}

int AppSettings::storageIntervalHours()
{
    bool ok = false;
    const int h = get(QStringLiteral("storage/intervalHours")).toInt(&ok);
    return ok && h >= 1 && h <= 168 ? h : 6;
}

void AppSettings::setStorageIntervalHours(int hours)
{
    QSettings().setValue(QStringLiteral("storage/intervalHours"), std::clamp(hours, 1, 168));
}

void AppSettings::setSsh(const QString &context, const Ssh &ssh)
{
    QSettings s;
    setOrRemove(s, sshKey(context, "user"), ssh.user);
    setOrRemove(s, sshKey(context, "identityFile"), ssh.identityFile);
    setOrRemove(s, sshKey(context, "proxyJump"), ssh.proxyJump);
    setOrRemove(s, sshKey(context, "config"), ssh.config);
}

int AppSettings::telemetryIntervalSeconds()
{
    return std::clamp(get(QStringLiteral("telemetry/intervalSeconds"), 2).toInt(), 1, 60);
}

void AppSettings::setTelemetryIntervalSeconds(int seconds)
{
    set(QStringLiteral("telemetry/intervalSeconds"), std::clamp(seconds, 1, 60));
}

QString AppSettings::language()
{
    return get(QStringLiteral("ui/language")).toString();
}

void AppSettings::setLanguage(const QString &language)
{
    set(QStringLiteral("ui/language"), language);
}

QString AppSettings::theme()
{
    return get(QStringLiteral("ui/theme")).toString();
}

void AppSettings::setTheme(const QString &theme)
{
    set(QStringLiteral("ui/theme"), theme);
}

bool AppSettings::notify()
{
    return get(QStringLiteral("alerts/notify"), true).toBool();
}

void AppSettings::setNotify(bool on)
{
    set(QStringLiteral("alerts/notify"), on);
}

bool AppSettings::keepWatching()
{
    return get(QStringLiteral("alerts/keepWatching"), false).toBool();
}

void AppSettings::setKeepWatching(bool on)
{
    set(QStringLiteral("alerts/keepWatching"), on);
}

int AppSettings::idleForMinutes()
{
    return std::clamp(get(QStringLiteral("cleanup/idleForMinutes"), 60).toInt(), 1, 7 * 24 * 60);
}

void AppSettings::setIdleForMinutes(int minutes)
{
    set(QStringLiteral("cleanup/idleForMinutes"), minutes);
}

QStringList AppSettings::addedRegistries()
{
    return get(QStringLiteral("images/registries")).toStringList();
}

QStringList AppSettings::plainHttpRegistries()
{
    return get(QStringLiteral("images/plainHttp")).toStringList();
}

void AppSettings::setRegistries(const QStringList &added, const QStringList &plainHttp)
{
    QSettings s;
    s.setValue(QStringLiteral("images/registries"), added);
    s.setValue(QStringLiteral("images/plainHttp"), plainHttp);
}

double AppSettings::hugeImageGiB()
{
    bool ok = false;
    const double gib = get(QStringLiteral("images/hugeGiB"), 20.0).toDouble(&ok);
    return ok && gib > 0 ? gib : 20.0;
}

void AppSettings::setHugeImageGiB(double gib)
{
    set(QStringLiteral("images/hugeGiB"), gib);
}

QStringList AppSettings::keychainLogins()
{
    return get(QStringLiteral("images/keychainLogins")).toStringList();
}

void AppSettings::setKeychainLogins(const QStringList &hosts)
{
    set(QStringLiteral("images/keychainLogins"), hosts);
}

QVariantMap AppSettings::loginUsers()
{
    return get(QStringLiteral("images/loginUsers")).toMap();
}

void AppSettings::setLoginUsers(const QVariantMap &users)
{
    set(QStringLiteral("images/loginUsers"), users);
}

QByteArray AppSettings::windowGeometry()
{
    return get(QStringLiteral("window/geometry")).toByteArray();
}

QByteArray AppSettings::windowState()
{
    return get(QStringLiteral("window/state")).toByteArray();
}

int AppSettings::windowPage()
{
    return get(QStringLiteral("window/page"), 0).toInt();
}

void AppSettings::setWindow(const QByteArray &geometry, const QByteArray &state, int page)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), geometry);
    s.setValue(QStringLiteral("window/state"), state);
    s.setValue(QStringLiteral("window/page"), page);
}

QByteArray AppSettings::columns(const QString &table)
{
    return get(QStringLiteral("columns/") + table).toByteArray();
}

void AppSettings::setColumns(const QString &table, const QByteArray &state)
{
    set(QStringLiteral("columns/") + table, state);
}

QByteArray AppSettings::nodesSplitter()
{
    return get(QStringLiteral("layout/nodesSplitter")).toByteArray();
}

void AppSettings::setNodesSplitter(const QByteArray &state)
{
    set(QStringLiteral("layout/nodesSplitter"), state);
}

int AppSettings::gpuMapZoom()
{
    return get(QStringLiteral("gpumap/zoom"), 0).toInt();
}

void AppSettings::setGpuMapZoom(int percent)
{
    set(QStringLiteral("gpumap/zoom"), percent);
}

QString AppSettings::gpuMapGroupBy()
{
    return get(QStringLiteral("gpumap/groupBy")).toString();
}

void AppSettings::setGpuMapGroupBy(const QString &groupBy)
{
    set(QStringLiteral("gpumap/groupBy"), groupBy);
}

} // namespace gpudesk
