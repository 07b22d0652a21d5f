import { describeProxyPayments } from "./support/proxy";
import { openFirefoxProxyWallet } from "./support/proxy-firefox";

// Firefox ESR starts the native host headless too (HOME's .mozilla/native-messaging-hosts).
describeProxyPayments("Firefox", openFirefoxProxyWallet);
