user_pref("browser.startup.page", 3);
user_pref("browser.sessionstore.upgradeBackup.latestBuildID", "20260101000000");
