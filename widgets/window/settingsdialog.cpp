// SPDX-License-Identifier: GPL-3.0-or-later
#include "settingsdialog.h"

#include "appsettings.h"

#include "alertcenter.h"
#include "clustersession.h"
#include "findingsservice.h"
#include "historyservice.h"
#include "imagesservice.h"
#include "services.h"
#include "theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QSpinBox *spin(const char *name, int low, int high, const QString &suffix, QWidget *parent)
{
    auto *s = new QSpinBox(parent);
    s->setObjectName(QLatin1String(name));
    s->setRange(low, high);
    s->setSuffix(suffix);
    return s;
}

QLineEdit *line(const char *name, QWidget *parent)
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setClearButtonEnabled(true);
    return e;
}

QLabel *note(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}

} // namespace

SettingsDialog::SettingsDialog(Services *services, QWidget *parent)
    : QDialog(parent), m_services(services), m_tabs(new QTabWidget(this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    m_tabs->addTab(generalTab(), tr("General"));
    m_tabs->addTab(connectionTab(), tr("Connection"));
    m_tabs->addTab(thresholdsTab(), tr("Thresholds"));
    m_tabs->addTab(alertsTab(), tr("Alerts"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    layout->addWidget(buttons);
    resize(640, 520);
}

QWidget *SettingsDialog::generalTab()
{
    auto *w = new QWidget(this);
    auto *form = new QFormLayout(w);
    m_language = new QComboBox(w);
    m_language->setObjectName(QStringLiteral("language"));
    m_language->addItem(tr("As the system"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));
    m_language->setCurrentIndex(std::max(0, m_language->findData(AppSettings::language())));
    form->addRow(tr("Language:"), m_language);
    form->addRow(QString(), note(tr("Takes effect at the next start."), w));
    m_theme = new QComboBox(w);
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("As the system"), int(theme::Scheme::System));
    m_theme->addItem(tr("Light"), int(theme::Scheme::Light));
    m_theme->addItem(tr("Dark"), int(theme::Scheme::Dark));
    m_theme->setCurrentIndex(m_theme->findData(int(theme::saved())));
    form->addRow(tr("Theme:"), m_theme);

    m_notify = new QCheckBox(tr("Show alerts as desktop notifications"), w);
    m_notify->setObjectName(QStringLiteral("notify"));
    m_notify->setChecked(AppSettings::notify());
    m_keepWatching = new QCheckBox(tr("Keep watching in the tray when the window is closed"), w);
    m_keepWatching->setObjectName(QStringLiteral("keepWatching"));
    m_keepWatching->setChecked(AppSettings::keepWatching());
    if (!QSystemTrayIcon::isSystemTrayAvailable()) {
        m_keepWatching->setEnabled(false);
        m_keepWatching->setToolTip(tr("This desktop has no system tray."));
    }
    form->addRow(tr("Alerts:"), m_notify);
    form->addRow(QString(), m_keepWatching);
    return w;
}

QWidget *SettingsDialog::connectionTab()
{
    auto *w = new QWidget(this);
    auto *form = new QFormLayout(w);
    m_context = new QComboBox(w);
    m_context->setObjectName(QStringLiteral("context"));
    m_context->addItems(m_services->session()->contexts());
    form->addRow(tr("Context:"), m_context);
    form->addRow(QString(), note(tr("For nodes your SSH config does not name; your SSH config "
                                    "(~/.ssh/config) wins where it does."),
                                 w));
    m_sshUser = line("sshUser", w);
    m_sshUser->setPlaceholderText(tr("your login name"));
    form->addRow(tr("SSH user:"), m_sshUser);
    m_sshKey = line("sshKey", w);
    m_sshKey->setPlaceholderText(tr("the SSH agent's keys, then ~/.ssh/id_*"));
    auto *browse = new QPushButton(tr("Choose…"), w);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("SSH private key"), QDir::homePath() + QStringLiteral("/.ssh"));
        if (!path.isEmpty())
            m_sshKey->setText(path);
    });
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_sshKey, 1);
    keyRow->addWidget(browse);
    form->addRow(tr("SSH key:"), keyRow);
    m_sshJump = line("sshJump", w);
    m_sshJump->setPlaceholderText(tr("user@bastion:22 (none)"));
    form->addRow(tr("Jump host:"), m_sshJump);
    m_sshConfig = line("sshConfig", w);
    m_sshConfig->setPlaceholderText(QStringLiteral("~/.ssh/config"));
    form->addRow(tr("SSH config:"), m_sshConfig);
    m_userRoots = line("nasUserRoots", w);
    m_userRoots->setPlaceholderText(QStringLiteral("/mnt/user"));
    m_userRoots->setToolTip(tr("Folders whose every sub-folder is a user's (space-separated)"));
    form->addRow(tr("NAS, users' folders in:"), m_userRoots);
    m_groupRoots = line("nasGroupRoots", w);
    m_groupRoots->setPlaceholderText(QStringLiteral("/mnt/share"));
    m_groupRoots->setToolTip(tr("Folders whose every sub-folder is a group's (space-separated)"));
    form->addRow(tr("NAS, groups' folders in:"), m_groupRoots);
    m_nasNode = line("nasNode", w);
    m_nasNode->setPlaceholderText(tr("the first node that answers"));
    form->addRow(tr("Measure the NAS on:"), m_nasNode);
    m_prometheus = line("prometheus", w);
    const QString all = AppSettings::prometheusForAll();
    m_prometheus->setPlaceholderText(all.isEmpty() ? tr("none: history from this session only")
                                                   : tr("%1 (the one for every context)").arg(all));
    form->addRow(tr("Prometheus:"), m_prometheus);
    form->addRow(QString(), note(tr("SSH settings take effect when you reconnect (F5); "
                                    "Prometheus at once."),
                                 w));
    connect(m_context, &QComboBox::currentTextChanged, this, &SettingsDialog::showContext);
    const QString current = m_services->session()->context();
    if (m_context->findText(current) >= 0)
        m_context->setCurrentText(current);
    showContext(m_context->currentText());
    m_loadedPrometheus = m_fields.value(current).prometheus;
    if (m_context->count() == 0)
        for (QLineEdit *e : {m_sshUser, m_sshKey, m_sshJump, m_sshConfig, m_prometheus, m_userRoots,
                             m_groupRoots, m_nasNode})
            e->setEnabled(false);
    return w;
}

void SettingsDialog::keepContext()
{
    if (m_shownContext.isEmpty())
        return;
    m_fields[m_shownContext] = {m_sshUser->text(),    m_sshKey->text(),     m_sshJump->text(),
                                m_sshConfig->text(),  m_prometheus->text(), m_userRoots->text(),
                                m_groupRoots->text(), m_nasNode->text()};
}

void SettingsDialog::showContext(const QString &context)
{
    keepContext();
    m_shownContext = context;
    if (!m_fields.contains(context)) {
        const AppSettings::Ssh ssh = AppSettings::ssh(context);
        const AppSettings::Storage nas = AppSettings::storage(context);
        ContextFields f{ssh.user,
                        ssh.identityFile,
                        ssh.proxyJump,
                        ssh.config,
                        AppSettings::prometheusOfContext(context),
                        nas.userRoots.join(u' '),
                        nas.groupRoots.join(u' '),
                        nas.node};
        m_fields.insert(context, f);
    }
    const ContextFields &f = m_fields[context];
    m_sshUser->setText(f.user);
    m_sshKey->setText(f.identityFile);
    m_sshJump->setText(f.proxyJump);
    m_sshConfig->setText(f.sshConfig);
    m_prometheus->setText(f.prometheus);
    m_userRoots->setText(f.userRoots);
    m_groupRoots->setText(f.groupRoots);
    m_nasNode->setText(f.nasNode);
}

QWidget *SettingsDialog::thresholdsTab()
{
    auto *w = new QWidget(this);
    auto *form = new QFormLayout(w);
    m_idleFor = spin("idleFor", 5, 7 * 24 * 60, tr(" min"), w);
    m_idleFor->setSingleStep(15);
    m_idleFor->setValue(int(m_services->findings()->options().idleForMs / 60000));
    form->addRow(tr("Idle GPUs after:"), m_idleFor);
    form->addRow(QString(), note(tr("Allocated GPUs under 5 % utilization this long are listed "
                                    "in Cleanup, and dev environments flagged to their owners."),
                                 w));
    m_interval = spin("interval", 1, 60, tr(" s"), w);
    m_interval->setValue(AppSettings::telemetryIntervalSeconds());
    form->addRow(tr("Sample nodes every:"), m_interval);
    form->addRow(QString(), note(tr("Over SSH, each node; takes effect when you reconnect."), w));
    m_hugeGiB = spin("hugeGiB", 1, 1024, tr(" GiB"), w);
    m_hugeGiB->setValue(int(m_services->images()->hugeBytes() >> 30));
    form->addRow(tr("Warn of images over:"), m_hugeGiB);
    return w;
}

QWidget *SettingsDialog::alertsTab()
{
    const AlertRules rules = m_services->alerts()->rules();
    auto *w = new QWidget(this);
    auto *layout = new QHBoxLayout(w);
    auto *which = new QGroupBox(tr("Raise an alert when"), w);
    auto *whichLayout = new QVBoxLayout(which);
    for (const QString &id : AlertRules::ids()) {
        auto *box = new QCheckBox(AlertRules::title(id), which);
        box->setObjectName(QStringLiteral("rule_") + id);
        box->setChecked(rules.enabled(id));
        whichLayout->addWidget(box);
        m_rules.insert(id, box);
    }
    whichLayout->addStretch(1);
    auto *limits = new QGroupBox(tr("Thresholds"), w);
    auto *form = new QFormLayout(limits);
    // One row a threshold: its spin box (named for tests), range, unit and value.
    const auto row = [&](const char *name, int low, int high, const QString &unit, int value,
                         const QString &label) {
        QSpinBox *box = spin(name, low, high, unit, limits);
        box->setValue(value);
        form->addRow(label, box);
        return box;
    };
    m_diskWarning =
        row("diskWarning", 1, 100, tr(" %"), rules.diskWarningPercent, tr("Disk warning at:"));
    m_diskCritical =
        row("diskCritical", 1, 100, tr(" %"), rules.diskCriticalPercent, tr("Disk critical at:"));
    m_hot = row("hot", 30, 130, tr(" °C"), rules.hotCelsius, tr("GPU too hot at:"));
    m_nearlyFull =
        row("nearlyFull", 1, 100, tr(" %"), rules.nearlyFullPercent, tr("VC or quota full at:"));
    m_flapCount = row("flapCount", 2, 100, tr(" times"), rules.flapCount, tr("Flapping: NotReady"));
    m_flapWindow = row("flapWindow", 1, 24 * 60, tr(" min"), rules.flapWindowMinutes, tr("within"));
    m_apiGrace =
        row("apiGrace", 0, 3600, tr(" s"), rules.apiGraceSeconds, tr("API server silent for:"));
    m_storageFolder = row("storageFolder", 1, 1024 * 1024, tr(" GiB"), rules.storageFolderGiB,
                          tr("A NAS folder over:"));
    m_storageDay = row("storageDay", 1, 1024 * 1024, tr(" GiB"), rules.storageDayGiB,
                       tr("Written to it in a day over:"));
    // Critical never below warning.
    connect(m_diskWarning, &QSpinBox::valueChanged, m_diskCritical, [this](int v) {
        if (m_diskCritical->value() < v)
            m_diskCritical->setValue(v);
    });
    connect(m_diskCritical, &QSpinBox::valueChanged, m_diskWarning, [this](int v) {
        if (m_diskWarning->value() > v)
            m_diskWarning->setValue(v);
    });
    layout->addWidget(which, 1);
    layout->addWidget(limits, 1);
    return w;
}

void SettingsDialog::accept()
{
    AppSettings::setLanguage(m_language->currentData().toString());
    const auto scheme = theme::Scheme(m_theme->currentData().toInt());
    theme::save(scheme);
    theme::apply(scheme);
    AppSettings::setNotify(m_notify->isChecked());
    AppSettings::setKeepWatching(m_keepWatching->isChecked());

    keepContext();
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        AppSettings::setSsh(it.key(), {it->user, it->identityFile, it->proxyJump, it->sshConfig});
        AppSettings::setPrometheusOfContext(it.key(), it->prometheus);
        AppSettings::setStorage(it.key(), {it->userRoots.split(u' ', Qt::SkipEmptyParts),
                                           it->groupRoots.split(u' ', Qt::SkipEmptyParts),
                                           it->nasNode.trimmed()});
    }
    const QString current = m_services->session()->context();
    // Only a change: a --prometheus given on the command line stands otherwise.
    if (m_fields.contains(current) && m_fields[current].prometheus != m_loadedPrometheus) {
        const QString url = AppSettings::prometheusFor(current);
        m_services->history()->setPrometheus(url.isEmpty() ? QUrl() : QUrl(url));
    }

    FindingsOptions o = m_services->findings()->options();
    o.idleForMs = qint64(m_idleFor->value()) * 60 * 1000;
    AppSettings::setIdleForMinutes(m_idleFor->value());
    m_services->findings()->setOptions(o);
    AppSettings::setTelemetryIntervalSeconds(m_interval->value());
    m_services->images()->setHugeBytes(qint64(m_hugeGiB->value()) << 30);

    AlertRules rules;
    for (auto it = m_rules.cbegin(); it != m_rules.cend(); ++it)
        if (!it.value()->isChecked())
            rules.disabled.insert(it.key());
    rules.diskWarningPercent = m_diskWarning->value();
    rules.diskCriticalPercent = m_diskCritical->value();
    rules.hotCelsius = m_hot->value();
    rules.nearlyFullPercent = m_nearlyFull->value();
    rules.flapCount = m_flapCount->value();
    rules.flapWindowMinutes = m_flapWindow->value();
    rules.apiGraceSeconds = m_apiGrace->value();
    rules.storageFolderGiB = m_storageFolder->value();
    rules.storageDayGiB = m_storageDay->value();
    rules.save();
    m_services->alerts()->setRules(rules);
    QDialog::accept();
}

} // namespace gpudesk
