export { untrusted } from "./untrusted"
