// SPDX-License-Identifier: GPL-3.0-or-later
// The window on a kubeconfig whose server does not answer (127.0.0.1:1), for tests that need the
// window and its contexts' names but no cluster (settings, the tray), with settings of the test's
// own in `dir`.
#pragma once

#include "clustersession.h"
#include "mainwindow.h"
#include "services.h"

#include <QFile>
#include <QSettings>
#include <QString>
#include <QStringList>

#include <memory>

struct OfflineWindow
{
    std::unique_ptr<gpudesk::Services> services;
    std::unique_ptr<gpudesk::MainWindow> w; // destroyed first

    // Settings under `dir`; a kubeconfig with the given contexts, the first connected. An
    // error in words, "" when the window is shown.
    static void useSettingsIn(const QString &dir)
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
    }

    QString open(const QString &dir, const QStringList &contexts)
    {
        useSettingsIn(dir);
        const QString kubeconfig = dir + QStringLiteral("/kubeconfig");
        QFile f(kubeconfig);
        if (!f.open(QIODevice::WriteOnly))
            return f.errorString();
        QByteArray yaml =
            "apiVersion: v1\nkind: Config\ncurrent-context: " + contexts.first().toUtf8() +
            "\nclusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1'}\n"
            "users:\n- name: u\n  user: {token: t}\ncontexts:\n";
        for (const QString &c : contexts)
            yaml += "- name: " + c.toUtf8() + "\n  context: {cluster: c, user: u}\n";
        f.write(yaml);
        f.close();
        services = std::make_unique<gpudesk::Services>(QStringList{kubeconfig});
        QString error;
        if (!services->session()->loadConfig(&error))
            return error;
        services->session()->connectTo(contexts.first());
        w = std::make_unique<gpudesk::MainWindow>(services.get());
        w->show();
        return {};
    }
    ~OfflineWindow() { w.reset(); }
};
