// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QHash>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace gpudesk {

class Services;

// What used to live in a settings file only, in one dialog (File › Settings…): language and
// theme, notifications and the tray; per context the SSH defaults (user, key, jump host, SSH
// config) and Prometheus; the idle threshold, node sampling interval and the huge-image warning;
// which alert rules raise and at what thresholds. OK saves and applies what can be applied at
// once (theme, thresholds, rules, the current context's Prometheus); the rest is said to take
// effect on reconnect or at the next start.
class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    SettingsDialog(Services *services, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    void accept() override;

private:
    struct ContextFields
    {
        QString user, identityFile, proxyJump, sshConfig, prometheus;
        QString userRoots, groupRoots, nasNode; // the NAS: roots space-separated, its node
    };
    QWidget *generalTab();
    QWidget *connectionTab();
    QWidget *thresholdsTab();
    QWidget *alertsTab();
    void showContext(const QString &context);
    void keepContext();

    Services *m_services;
    QTabWidget *m_tabs;
    QComboBox *m_language;
    QComboBox *m_theme;
    QCheckBox *m_notify;
    QCheckBox *m_keepWatching;
    QComboBox *m_context;
    QLineEdit *m_sshUser;
    QLineEdit *m_sshKey;
    QLineEdit *m_sshJump;
    QLineEdit *m_sshConfig;
    QLineEdit *m_prometheus;
    QSpinBox *m_idleFor;
    QSpinBox *m_interval;
    QSpinBox *m_hugeGiB;
    QHash<QString, QCheckBox *> m_rules;
    QSpinBox *m_diskWarning;
    QSpinBox *m_diskCritical;
    QSpinBox *m_hot;
    QSpinBox *m_nearlyFull;
    QSpinBox *m_flapCount;
    QSpinBox *m_flapWindow;
    QSpinBox *m_apiGrace;
    QSpinBox *m_storageFolder;
    QSpinBox *m_storageDay;
    QLineEdit *m_userRoots;
    QLineEdit *m_groupRoots;
    QLineEdit *m_nasNode;
    QHash<QString, ContextFields> m_fields; // as edited, by context
    QString m_loadedPrometheus;             // the current context's, as the dialog opened
    QString m_shownContext;
};

} // namespace gpudesk
