import { chromium } from 'playwright';
const B='http://127.0.0.1:4481';
const browser=await chromium.launch({executablePath:'/usr/lib/chromium/chromium-headless-shell'});
const c=await browser.newContext({viewport:{width:390,height:844},isMobile:true,hasTouch:true});
const p=await c.newPage();
for (const [n,u] of [['bad','/visitors/unsubscribe?token=abc'],['none','/visitors/unsubscribe']]) {
await p.goto(B+u,{waitUntil:'networkidle'}); await p.screenshot({path:`/tmp/look/unsub-${n}-390.png`});
console.log(n, (await p.locator('main').innerText()).slice(0,400), await p.getByRole('button').allInnerTexts());}
await browser.close();
