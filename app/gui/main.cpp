#include "mainwindow/MainWindow.h"
#include "store/store.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QTranslator>

#include <filesystem>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Sandbench"));
    QApplication::setApplicationName(QStringLiteral("sandbench-gui"));
    QApplication::setApplicationVersion(QStringLiteral(SANDBENCH_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.sandbench.Sandbench"));

    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("sandbench"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);
    QApplication::setApplicationDisplayName(QCoreApplication::translate("main", "Sandbench"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main", "Run code you do not trust in an OS sandbox."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption storeOption(
        QStringLiteral("store"),
        QCoreApplication::translate("main", "The store file to use (default: $SANDBENCH_STORE or the user's data folder)."),
        QCoreApplication::translate("main", "PATH"));
    parser.addOption(storeOption);
    parser.process(app);

    const std::filesystem::path storePath = parser.isSet(storeOption)
                                                ? std::filesystem::path(parser.value(storeOption).toStdString())
                                                : sb::Store::defaultPath();

    sb::ui::MainWindow window(storePath);
    window.show();
    if (const auto error = window.openStore()) {
        // Errors are values up to here; this is the one place that turns one into a dialog.
        auto* box = new QMessageBox(QMessageBox::Critical, QCoreApplication::translate("main", "Store unavailable"),
                                    QCoreApplication::translate("main", "The store could not be opened:\n%1\n\n%2")
                                        .arg(*error, QString::fromStdString(storePath.string())),
                                    QMessageBox::Ok, &window);
        box->setInformativeText(QCoreApplication::translate(
            "main", "You can still edit and run snippets; runs are not recorded and the file is left untouched."));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return QApplication::exec();
}
